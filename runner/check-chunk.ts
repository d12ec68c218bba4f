// What each generated spec file runs (runner/spec-files.ts): every check
// file imported once per process (their defineCheck calls register the checks
// and their tests against the run's targets), then this file's slice of the
// tests declared (runner/declare-tests.ts).
import { pathToFileURL } from 'node:url';
import { declareCheckTests } from './declare-tests.ts';
import { checkFiles } from './check-files.ts';

let imported: Promise<void> | undefined;

async function importCheckFiles(): Promise<void> {
  for (const file of checkFiles()) await import(pathToFileURL(file).href);
}

export async function declareChunk(chunk: number, chunks: number): Promise<void> {
  await (imported ??= importCheckFiles());
  declareCheckTests(chunk, chunks);
}
