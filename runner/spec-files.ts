// The spec files Playwright loads for one run, written into the run's scratch
// directory: each declares one contiguous slice of the run's tests, longest
// declared waits first (runner/define.ts). Why several: before each test a
// Playwright worker clones its whole file's suite and hashes every test id in
// it, so a self-test's thousands of tests in one file made that bookkeeping
// (quadratic in the file's size) cost more CPU than the checks themselves.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { fromRoot } from '../src/paths.ts';

/**
 * Targets per spec file: a self-test's targets average about ten tests each
 * (most run the few checks of one fault), so four make files of about forty
 * tests; a run of one target stays in one file.
 */
const TARGETS_PER_FILE = 4;
const MAX_FILES = 128;

export const SPEC_FILE_SUFFIX = '.spec.mjs';

/** How many spec files a run over this many targets is split into. */
export function specFileCount(targets: number): number {
  return Math.min(MAX_FILES, Math.max(1, Math.ceil(targets / TARGETS_PER_FILE)));
}

/** Writes the spec files into dir (created), named so that Playwright's file order is the slices' order. */
export function writeSpecFiles(dir: string, targets: number): void {
  mkdirSync(dir, { recursive: true });
  const chunks = specFileCount(targets);
  const chunkModule = pathToFileURL(fromRoot('runner', 'check-chunk.ts')).href;
  for (let chunk = 0; chunk < chunks; chunk++) {
    const name = `checks-${String(chunk).padStart(3, '0')}${SPEC_FILE_SUFFIX}`;
    const source = `import { declareChunk } from ${JSON.stringify(chunkModule)};\nawait declareChunk(${chunk}, ${chunks});\n`;
    writeFileSync(path.join(dir, name), source);
  }
}
