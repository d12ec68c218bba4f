// Reads the nights of `ptas report --history`. A history spans ptas versions:
// a night written by an older ptas lacks newer fields, one written by a newer
// ptas (or with waivers) has verdicts this version does not know. So a night
// is read leniently — only what the trend page draws must be there (the start
// time, each check's id and verdict) — unlike `ptas report RESULTS`, which
// re-renders the whole run and holds it to schemas/results.schema.json
// (reports/read-results.ts). A missing or unusable night is still an error
// naming the file and the field, exit 2.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { CheckResult } from '../src/check/model.ts';
import type { RunResults } from '../src/results/model.ts';
import { ResultsFileError } from './read-results.ts';

/** What the history reads of one night: results.json's shape, its fields possibly partial. */
export interface Night {
  file: string;
  results: RunResults;
}

function nightsUnder(dir: string): string[] {
  const own = path.join(dir, 'results.json');
  if (existsSync(own)) return [own];
  const found = readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(path.join(dir, e.name, 'results.json')))
    .map((e) => path.join(dir, e.name, 'results.json'))
    .sort();
  if (!found.length) throw new ResultsFileError(`${dir} holds no results.json, neither itself nor in a folder directly under it; pass report folders, results.json files, or a folder of nights (NIGHTS/<night>/results.json)`);
  return found;
}

/**
 * The results files an argument list names: a results.json, a report folder
 * holding one, or a folder whose sub-folders each hold one (a kept history,
 * one folder per night). The same file named twice counts once.
 */
export function historyFiles(inputs: readonly string[]): string[] {
  const files: string[] = [];
  for (const input of inputs) {
    let isDir: boolean;
    try {
      isDir = statSync(input).isDirectory();
    } catch {
      throw new ResultsFileError(`no results file or folder at ${input}`);
    }
    files.push(...(isDir ? nightsUnder(input) : [input]));
  }
  return [...new Map(files.map((f) => [path.resolve(f), f])).values()];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function need(ok: boolean, file: string, what: string): void {
  if (!ok) throw new ResultsFileError(`${file} is not a ptas results file: ${what}; pass the results.json a ptas run wrote`);
}

function readCheck(raw: unknown, index: number, file: string): CheckResult {
  need(isObject(raw), file, `checks[${index}] is not an object`);
  const c = raw as Record<string, unknown>;
  need(typeof c.id === 'string' && c.id !== '', file, `checks[${index}].id must be a non-empty string`);
  need(typeof c.verdict === 'string' && c.verdict !== '', file, `checks[${index}].verdict must be a non-empty string`);
  return {
    ...(c as unknown as CheckResult),
    target: typeof c.target === 'string' ? c.target : '',
    title: typeof c.title === 'string' ? c.title : (c.id as string),
    requirements: Array.isArray(c.requirements) ? c.requirements.filter((r): r is string => typeof r === 'string') : [],
    reason: typeof c.reason === 'string' ? c.reason : undefined,
  };
}

/** A load section is drawn only when it has the shape reports/load-figures.ts reads; otherwise the night has no load figures. */
function readLoad(raw: unknown): RunResults['load'] {
  if (!isObject(raw) || !Array.isArray(raw.probes) || !Array.isArray(raw.profiles)) return undefined;
  const probes = raw.probes.filter((p) => isObject(p) && (p.kind === 'body-size' || (p.kind === 'rate-limit' && Array.isArray(p.steps))));
  const profiles = raw.profiles.filter((p) => isObject(p) && isObject(p.latency));
  return { ...(raw as unknown as NonNullable<RunResults['load']>), probes: probes as never, profiles: profiles as never };
}

export function readNight(file: string): Night {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new ResultsFileError(`no results file at ${file}`);
    throw new ResultsFileError(error instanceof SyntaxError ? `${file} is not JSON (${error.message}); pass the results.json a ptas run wrote` : `cannot read ${file}: ${(error as Error).message}`);
  }
  need(isObject(data), file, 'the top level is not an object');
  const d = data as Record<string, unknown>;
  need(d.schemaVersion === undefined || d.schemaVersion === 1, file, `schemaVersion ${JSON.stringify(d.schemaVersion)}; this ptas reads schemaVersion 1`);
  need(isObject(d.run), file, 'run is missing');
  const run = d.run as Record<string, unknown>;
  need(typeof run.startedAt === 'string' && !Number.isNaN(Date.parse(run.startedAt)), file, 'run.startedAt must be a date-time (the night is placed by it)');
  need(Array.isArray(d.checks), file, 'checks must be an array');
  const checks = (d.checks as unknown[]).map((c, i) => readCheck(c, i, file));
  const results = {
    ...(d as unknown as RunResults),
    run: { ...(run as unknown as RunResults['run']), target: typeof run.target === 'string' ? run.target : '' },
    verdict: (typeof d.verdict === 'string' ? d.verdict : 'unknown') as RunResults['verdict'],
    checks,
    errors: Array.isArray(d.errors) ? d.errors.filter((e): e is string => typeof e === 'string') : [],
    load: readLoad(d.load),
  };
  return { file, results };
}

/** Every night the inputs name, oldest first (by run.startedAt; the file path breaks a tie). */
export function readHistory(inputs: readonly string[]): Night[] {
  const nights = historyFiles(inputs).map(readNight);
  return nights.sort((a, b) => Date.parse(a.results.run.startedAt) - Date.parse(b.results.run.startedAt) || a.file.localeCompare(b.file));
}
