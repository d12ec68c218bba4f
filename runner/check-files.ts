// Where the conformance check files are: Playwright runs them
// (runner/spec-files.ts) and `ptas list` imports them (app/run/list.ts).
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fromRoot } from '../src/paths.ts';

export const CHECKS_DIR = fromRoot('suites');
export const CHECK_FILE_SUFFIX = '.check.ts';

/** Every check file, absolute, in a stable order. */
export function checkFiles(): string[] {
  return readdirSync(CHECKS_DIR, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith(CHECK_FILE_SUFFIX))
    .sort()
    .map((file) => path.join(CHECKS_DIR, file));
}
