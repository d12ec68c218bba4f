// Every record of the store is written whole or not at all: to a temporary
// file beside it, flushed, then renamed over it (a rename within one
// directory is atomic), so a server killed mid-write leaves the old record,
// never half a new one. Readers take a missing or unreadable file as absent.
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

/** The suffix of the temporary files; what a crash left behind is removed at start-up (removeTemporaryFiles). */
const TEMPORARY = '.tmp';

export function writeFileAtomic(file: string, data: string | Buffer, mode = 0o600): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const scratch = `${file}.${process.pid}.${randomBytes(4).toString('hex')}${TEMPORARY}`;
  const fd = openSync(scratch, 'w', mode);
  try {
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(scratch, file);
  } catch (error) {
    rmSync(scratch, { force: true });
    throw error;
  }
}

export function writeJsonAtomic(file: string, value: unknown): void {
  writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** The file's JSON, or undefined when it is missing or not JSON. */
export function readJsonFile<T>(file: string): T | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

/** Removes the temporary files a crash left in dir (not below it). */
export function removeTemporaryFiles(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) if (name.endsWith(TEMPORARY)) rmSync(path.join(dir, name), { force: true });
}
