// Reads a saved results.json for `ptas report`: a missing, unreadable or
// malformed file is a clear error (exit 2) naming the file and what is wrong.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { RunResults } from '../src/results/model.ts';
import { describeSchemaErrors, validateAgainst } from '../src/schemas/registry.ts';
import { PtasError } from '../src/errors.ts';

export class ResultsFileError extends PtasError {
  readonly code = 'results-file';
  override name = 'ResultsFileError';
}

/** A report directory stands for the results.json in it. */
export function resolveResultsPath(file: string): string {
  try {
    return statSync(file).isDirectory() ? path.join(file, 'results.json') : file;
  } catch {
    return file;
  }
}

export function readResultsFile(given: string): RunResults {
  const file = resolveResultsPath(given);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ResultsFileError(code === 'ENOENT' ? `no results file at ${file}` : `cannot read ${file}: ${(error as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ResultsFileError(`${file} is not JSON (${(error as Error).message}); pass the results.json a ptas run wrote`);
  }
  const version = (data as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (data && typeof data === 'object' && version !== undefined && version !== 1) {
    throw new ResultsFileError(`${file} has schemaVersion ${JSON.stringify(version)}; this ptas reads schemaVersion 1`);
  }
  const errors = validateAgainst('results.schema.json', data);
  if (errors.length) {
    throw new ResultsFileError(`${file} is not a ptas results file (schemas/results.schema.json): ${describeSchemaErrors(errors, 5)}`);
  }
  return data as RunResults;
}
