// Runs a load scenario on a real k6 binary (PTAS_K6, else `k6` on PATH) and
// reads back what it produced: the normalized result handleSummary() wrote,
// plus the time series and arrival timeline rebuilt from k6's NDJSON
// output, so the analysis sees the same data as from the embedded engine.
import { spawn } from 'node:child_process';
import { accessSync, constants, createReadStream, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { ArrivalTimeline, NormalizedRun, TimeBucket } from '../result/normalized.ts';
import { ANSWERS, LATENCY } from '../scenarios/metrics.ts';
import { k6Args, k6Environment, k6Variables, writeProfileFile, type K6Invocation } from './invocation.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
export const K6_SCRIPTS = { arrivalRate: path.join(here, '..', 'k6', 'arrival-rate.ts'), bodySize: path.join(here, '..', 'k6', 'body-size-boundary.ts') };

/** The k6 binary: PTAS_K6, else the first `k6` on PATH; undefined when there is none. */
export function findK6(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const candidates = env.PTAS_K6 ? [env.PTAS_K6] : (env.PATH ?? '').split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, 'k6'));
  for (const file of candidates) {
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

export interface K6RunOptions extends K6Invocation {
  binary: string;
  output: NodeJS.WritableStream;
  signal?: AbortSignal;
}

export interface K6RunResult {
  exitCode: number | null;
  /** The JSON handleSummary() wrote (a NormalizedRun, or the body-size result). */
  result: unknown;
  timeSeries: TimeBucket[];
  arrivalTimeline?: ArrivalTimeline;
}

const TIMELINE_MS = 10;

/** Counts an admitted or refused request in the slot of the time it was sent (ms from the first point; earlier ones in the first slot). */
function countInTimeline(timeline: ArrivalTimeline, limited: boolean, sentMs: number): void {
  const slot = Math.max(0, Math.floor(sentMs / TIMELINE_MS));
  while (timeline.admitted.length <= slot) {
    timeline.admitted.push(0);
    timeline.limited.push(0);
  }
  (limited ? timeline.limited : timeline.admitted)[slot]!++;
}

/** k6 NDJSON points of our metrics → per-second buckets and the 10 ms arrival timeline. */
export async function readK6Points(file: string): Promise<{ timeSeries: TimeBucket[]; arrivalTimeline: ArrivalTimeline }> {
  const buckets = new Map<number, TimeBucket & { latencies: number[] }>();
  const timeline: ArrivalTimeline = { resolutionMs: TIMELINE_MS, admitted: [], limited: [] };
  let t0: number | undefined;
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.includes('"Point"')) continue;
    const point = JSON.parse(line) as { type: string; metric: string; data: { time: string; value: number; tags?: Record<string, string> } };
    if (point.type !== 'Point' || (point.metric !== ANSWERS && point.metric !== LATENCY)) continue;
    const at = Date.parse(point.data.time);
    t0 ??= at;
    const ms = at - t0;
    const second = Math.floor(ms / 1000);
    let bucket = buckets.get(second);
    if (!bucket) buckets.set(second, (bucket = { tSec: second, offered: 0, sent: 0, status2xx: 0, status429: 0, status5xx: 0, other: 0, latencies: [] }));
    const outcome = point.data.tags?.outcome;
    if (point.metric === LATENCY) {
      bucket.latencies.push(point.data.value);
      // Written as the answer comes, its value the request's duration (timings.duration): the request was sent that long before.
      if (outcome !== '5xx' && outcome !== 'transport') countInTimeline(timeline, outcome === '429', ms - point.data.value);
      continue;
    }
    bucket.sent++;
    bucket.offered++;
    if (outcome === '2xx') bucket.status2xx++;
    else if (outcome === '429') bucket.status429++;
    else if (outcome === '5xx') bucket.status5xx++;
    else bucket.other++;
  }
  const timeSeries = [...buckets.values()]
    .sort((a, b) => a.tSec - b.tSec)
    .map(({ latencies, ...b }) => {
      latencies.sort((x, y) => x - y);
      return latencies.length ? { ...b, p95Ms: latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.95))] } : b;
    });
  return { timeSeries, arrivalTimeline: timeline };
}

export async function runK6(options: K6RunOptions): Promise<K6RunResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ptas-k6-'));
  try {
    const resultPath = path.join(dir, 'result.json');
    const pointsPath = path.join(dir, 'points.ndjson');
    const vars = k6Variables(options, { profile: writeProfileFile(dir, options.profile), result: resultPath });
    const child = spawn(options.binary, k6Args(['--quiet', '--out', `json=${pointsPath}`], vars, options.script), {
      env: k6Environment(options.profile),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.pipe(options.output, { end: false });
    child.stderr!.pipe(options.output, { end: false });
    const abort = () => child.kill('SIGINT');
    options.signal?.addEventListener('abort', abort, { once: true });
    const exitCode = await new Promise<number | null>((resolve) => child.once('close', resolve));
    options.signal?.removeEventListener('abort', abort);
    if (!existsSync(resultPath)) throw new Error(`k6 exited with ${exitCode} and wrote no result (${resultPath})`);
    const result = JSON.parse(readFileSync(resultPath, 'utf8')) as unknown;
    const points = existsSync(pointsPath) ? await readK6Points(pointsPath) : { timeSeries: [], arrivalTimeline: undefined };
    return { exitCode, result, ...points };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A k6 arrival-rate result with the series rebuilt from its points. */
export function withPoints(run: NormalizedRun, k6: K6RunResult): NormalizedRun {
  return { ...run, timeSeries: k6.timeSeries, ...(k6.arrivalTimeline ? { arrivalTimeline: k6.arrivalTimeline } : {}) };
}
