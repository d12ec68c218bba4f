// k6 durations ("250ms", "1.5s", "2m", "1h30m") to seconds and back.
import type { Duration } from './types.ts';

const UNIT_SECONDS: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600 };
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h)/g;

export function durationSec(duration: Duration): number {
  const text = duration.trim();
  if (/^\d+(?:\.\d+)?$/.test(text)) return Number(text);
  let total = 0;
  let consumed = 0;
  for (const match of text.matchAll(PART)) {
    total += Number(match[1]) * UNIT_SECONDS[match[2]!]!;
    consumed += match[0].length;
  }
  if (consumed !== text.length || consumed === 0) throw new Error(`not a k6 duration: "${duration}" (examples: 500ms, 1.5s, 2m, 1h30m)`);
  return total;
}

/** Seconds as a k6 duration, in milliseconds so no step is rounded away. */
export function formatDuration(seconds: number): Duration {
  const ms = Math.round(seconds * 1000);
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}
