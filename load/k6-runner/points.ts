// k6's documented --out json format, read line by line: NDJSON lines
// {"type":"Metric",…} (one per metric, first seen) and
// {"type":"Point","metric":"…","data":{"time":"…","value":…,"tags":{…}}}.
// Lines that are not JSON (a log line, when the points come from a k6-operator
// runner's log) are skipped.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

export interface K6Point {
  metric: string;
  /** ms since the epoch, with k6's sub-millisecond part kept as a fraction. */
  timeMs: number;
  value: number;
  tags: Record<string, string>;
}

/** k6's RFC 3339 time with up to nanoseconds ("2017-05-09T14:34:45.625742514+02:00"), in ms since the epoch. */
export function k6TimeMs(text: string): number {
  const m = /^(.+T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:?\d{2})$/.exec(text);
  if (!m) return Date.parse(text);
  return Date.parse(m[1]! + m[3]!) + Number(`0.${m[2] ?? '0'}`) * 1000;
}

/** The Point lines of the given metrics, in file order; `wanted` is checked on the raw line first, so other metrics cost no parse. */
export async function* readPoints(file: string, metrics: ReadonlySet<string>): AsyncGenerator<K6Point> {
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.startsWith('{') || !line.includes('"Point"')) continue;
    const metricName = /"metric":"([^"]+)"/.exec(line)?.[1];
    if (!metricName || !metrics.has(metricName)) continue;
    let parsed: { type?: string; metric?: string; data?: { time?: string; value?: number; tags?: Record<string, string> | null } };
    try {
      parsed = JSON.parse(line) as typeof parsed;
    } catch {
      continue; // a line cut short (a runner's log truncated): not a point
    }
    if (parsed.type !== 'Point' || !parsed.data?.time || typeof parsed.data.value !== 'number') continue;
    yield { metric: parsed.metric!, timeMs: k6TimeMs(parsed.data.time), value: parsed.data.value, tags: parsed.data.tags ?? {} };
  }
}
