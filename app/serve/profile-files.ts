// Profile keys that name files: on `ptas run` they are the user's own files;
// on a server they would be the server's, and a token holder could have it
// read any of them (a JWK Set "file" of /etc/shadow came back as the first
// characters of a parse error). So a stored profile names no file, unless
// the operator gives the lab a folder for them (`ptas serve --profile-files
// DIR`: the CA bundles, client certificates and key sets its targets need);
// then each such key is a path relative to that folder that stays inside it,
// symbolic links included.
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../../src/config/errors.ts';
import type { Profile } from '../../src/config/profile.ts';
import { ServeError } from './errors.ts';

/** The keys whose values are paths of files the suite reads. */
export const FILE_KEYS = ['http.ca', 'http.cert', 'http.key', 'auth.jwksFile', 'webhooks.signature.jwksFile'] as const;

function parentOf(profile: Profile, keyPath: string): Record<string, unknown> | undefined {
  return keyPath
    .split('.')
    .slice(0, -1)
    .reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), profile) as Record<string, unknown> | undefined;
}

/** The file keys the profile sets, with their values. */
export function fileKeysOf(profile: Profile): Array<{ keyPath: string; value: string }> {
  return FILE_KEYS.flatMap((keyPath) => {
    const value = parentOf(profile, keyPath)?.[keyPath.split('.').at(-1)!];
    return typeof value === 'string' ? [{ keyPath, value }] : [];
  });
}

const pointerOf = (keyPath: string) => `/${keyPath.replaceAll('.', '/')}`;

export class ProfileFilesPolicy {
  /** The folder's real path, or undefined: no profile may name a file. */
  readonly dir?: string;

  constructor(dir?: string) {
    if (dir === undefined) return;
    try {
      this.dir = realpathSync(dir);
      if (!statSync(this.dir).isDirectory()) throw new Error('not a folder');
    } catch (error) {
      throw new ConfigError(`--profile-files ${dir}: cannot use it as the folder of the profiles' files (${(error as Error).message})`);
    }
  }

  /** Refuses (422 file-refused) a profile naming a file the server may not read; with a folder, answers each key's file inside it. */
  private place(keyPath: string, value: string): string {
    const refuse = (why: string) => new ServeError('file-refused', `${keyPath}: ${why}`, { keyPath: pointerOf(keyPath) });
    if (!this.dir) {
      throw refuse(
        `a profile stored on ptas serve names no file of the server's (the operator can give the lab a folder for them: ptas serve --profile-files DIR)${keyPath.endsWith('jwksFile') ? `; give the key set as ${keyPath.replace('jwksFile', 'jwksUrl')}` : ''}`,
      );
    }
    if (path.isAbsolute(value) || value.split(/[\\/]/).includes('..')) throw refuse(`write a path relative to the lab's profile files folder, without "..": ${JSON.stringify(value)}`);
    return path.join(this.dir, value);
  }

  /** At save: the profile names only files the server may read (inside the folder; whether they exist is the run's to find). */
  checkStorable(profile: Profile): void {
    for (const { keyPath, value } of fileKeysOf(profile)) this.place(keyPath, value);
  }

  /** At a run or a Check: the profile with each file key the real path of a regular file inside the folder. */
  resolve(profile: Profile): Profile {
    const keys = fileKeysOf(profile);
    if (!keys.length) return profile;
    const resolved = structuredClone(profile);
    for (const { keyPath, value } of keys) {
      const joined = this.place(keyPath, value);
      let real: string;
      try {
        real = realpathSync(joined);
      } catch {
        throw new ServeError('file-refused', `${keyPath}: the lab's profile files folder has no file ${JSON.stringify(value)}`, { keyPath: pointerOf(keyPath) });
      }
      if (path.relative(this.dir!, real).startsWith('..') || !statSync(real).isFile()) {
        throw new ServeError('file-refused', `${keyPath}: ${JSON.stringify(value)} is not a file inside the lab's profile files folder`, { keyPath: pointerOf(keyPath) });
      }
      parentOf(resolved, keyPath)![keyPath.split('.').at(-1)!] = real;
    }
    return resolved;
  }
}
