// An implementation's profile as the server holds it: the text the user
// wrote (JSON with comments), checked with the loader `ptas run -c` uses
// (src/config/jsonc.ts, src/config/validate.ts), and never with a secret in
// it: a secret is written as "env:NAME" and read from the server's
// environment when a run starts, or given with the run and kept in memory
// for that run only. What counts as a secret is what manifest.json hashes
// (src/certify/profile-secrets.ts).
import { secretKeyPaths as manifestSecretKeyPaths } from '../../src/certify/profile-secrets.ts';
import { ConfigError } from '../../src/config/errors.ts';
import { JsoncSyntaxError, parseJsonc } from '../../src/config/jsonc.ts';
import { resolveEnvReferences } from '../../src/config/load.ts';
import type { Profile } from '../../src/config/profile.ts';
import { validateProfile } from '../../src/config/validate.ts';
import { ServeError } from './errors.ts';

/** Secrets a run request may carry, for that run only. */
export interface RunSecrets {
  clientSecret?: string;
  /** Values of the profile's env:NAME references for this run, before the server's environment. */
  env?: Record<string, string>;
}

const SOURCE = 'profileText';

/** "credentials.clientSecret" → "/credentials/clientSecret"; "a.b[0]" → "/a/b/0". */
function pointerOf(keyPath: string): string {
  return `/${keyPath.replace(/\[(\d+)\]/g, '.$1').split('.').join('/')}`;
}

function valueAt(value: unknown, keyPath: string): unknown {
  return keyPath
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), value);
}

/** The environment variable a secret at this key path is best read from (as `ptas init` names them). */
export function envNameFor(keyPath: string): string {
  if (keyPath === 'credentials.clientSecret') return 'PTAS_CLIENT_SECRET';
  return `PTAS_${keyPath.replace(/\[(\d+)\]/g, '_$1').replace(/([a-z])([A-Z])/g, '$1_$2').replace(/\./g, '_').toUpperCase()}`;
}

/** The key paths of the profile's secrets: every value manifest.json would hash. */
function secretKeyPaths(profile: unknown, knownSecrets: string[] = []): string[] {
  return manifestSecretKeyPaths(profile, knownSecrets);
}

/** Parses and validates the text as `ptas run -c` would; a problem is a 422 naming the line or the key path. */
export function parseProfileText(text: string): Profile {
  let parsed: unknown;
  try {
    parsed = parseJsonc(text);
  } catch (error) {
    if (!(error instanceof JsoncSyntaxError)) throw error;
    throw new ServeError('invalid-profile', `the profile is not valid JSON (comments and trailing commas are allowed): ${error.message}`, {
      line: error.line,
      column: error.column,
    });
  }
  try {
    validateProfile(parsed, SOURCE);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    throw new ServeError('invalid-profile', error.message, { keyPath: error.keyPath ?? '/', problems: error.message.split('\n') });
  }
  return parsed as Profile;
}

/** A profile the store may keep: it parses, validates, and holds no secret in the clear. */
export function checkStorableProfile(text: string): Profile {
  const profile = parseProfileText(text);
  const literal = secretKeyPaths(profile).filter((keyPath) => {
    const value = valueAt(profile, keyPath);
    return typeof value === 'string' && !value.startsWith('env:');
  });
  if (literal.length) {
    const keyPath = literal[0]!;
    const fix = `env:${envNameFor(keyPath)}`;
    const key = keyPath.split('.').at(-1)!.replace(/\[\d+\]$/, '');
    throw new ServeError(
      'literal-secret',
      `${keyPath} holds a secret in the clear, and the server stores no secret: write "${key}": "${fix}" and set ${envNameFor(keyPath)} in the server's environment` +
        (keyPath === 'credentials.clientSecret' ? ', or leave it out and give the secret with each run ("secrets": {"clientSecret": "…"}), kept in memory for that run only' : ''),
      { keyPath: pointerOf(keyPath), fix, secrets: literal.map(pointerOf) },
    );
  }
  return profile;
}

export interface RunProfile {
  /** Resolved: env: references replaced by the server's environment, the run's secrets applied. In memory only. */
  profile: Profile;
  /** Every secret value in it, for the run's Redactor. */
  secrets: string[];
}

/** The profile a run uses: the stored text with the run's secrets and the server's environment. */
export function runProfile(text: string, env: NodeJS.ProcessEnv, secrets: RunSecrets = {}): RunProfile {
  const profile = parseProfileText(text);
  if (secrets.clientSecret !== undefined) profile.credentials = { ...profile.credentials, clientSecret: secrets.clientSecret };
  let resolved: Profile;
  try {
    resolved = resolveEnvReferences(profile, { ...env, ...secrets.env });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const hint = error.keyPath === '/credentials/clientSecret' ? ', or give it with the run ("secrets": {"clientSecret": "…"})' : '';
    throw new ServeError('missing-secret', `${error.message.replace(/ \(example: .*\)$/, '')}: set it in the environment of ptas serve${hint}`, { keyPath: error.keyPath });
  }
  const clientSecret = resolved.credentials?.clientSecret;
  const values = secretKeyPaths(resolved, clientSecret ? [clientSecret] : []).map((keyPath) => valueAt(resolved, keyPath));
  const given = [secrets.clientSecret, ...Object.values(secrets.env ?? {})];
  return { profile: resolved, secrets: [...new Set([...values, ...given].filter((v): v is string => typeof v === 'string' && v.length > 0))] };
}

/** The base URL the text names, if it parses (for summaries; an unparsable text has none). */
export function baseUrlOf(text: string): string | undefined {
  try {
    const parsed = parseJsonc(text) as Profile | null;
    return typeof parsed?.baseUrl === 'string' ? parsed.baseUrl : undefined;
  } catch {
    return undefined;
  }
}
