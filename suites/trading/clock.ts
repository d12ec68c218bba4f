// The clock an implementation shows in its offers' timestamps, and the waits
// that follow from it (issue 21: margins follow the clock granularity the
// implementation shows). A server that keeps whole seconds creates an offer
// at a whole second, lets it expire at a whole second and judges "past" only
// once the next second has begun: such an offer may stay acceptable up to
// about a second longer than its validity, and two offers created within one
// second may carry the same creation time. A clock the answers do not show
// is taken to be whole seconds, the coarsest common one, so a wait is never
// too short for the clock behind it.
import type { HttpResponse } from '../../src/http/client.ts';
import { readIso8601 } from '../../src/schemas/iso8601.ts';

/** The granularity assumed when no timestamp shows one. */
export const ASSUMED_GRANULARITY_MS = 1_000;

export interface ShownClock {
  /** The finest step of the implementation's timestamps, in ms (1000: whole seconds). */
  granularityMs: number;
  /** 'shown': read from timestamps in its answers; 'assumed': none showed it. */
  from: 'shown' | 'assumed';
}

/** Names of numeric fields that carry an instant (created_at, valid_until, expires, timestamp…). */
const INSTANT_NAME = /(_at|_until|time|timestamp|expir|date)$/i;
const MAX_DEPTH = 6;

/**
 * The finest step one value shows, in ms: an ISO 8601 timestamp's
 * (src/schemas/iso8601.ts, basic format too) lowest-order part and its
 * fraction ("…:00.123" → 1, seconds without one or all zeros → 1000), or a
 * number named like an instant: epoch seconds (1000) or epoch milliseconds
 * (1, unless a multiple of 1000). Undefined when the value is no timestamp.
 */
export function stepOf(value: unknown, name = ''): number | undefined {
  if (typeof value === 'string') {
    const timestamp = readIso8601(value.trim()).timestamp;
    if (!timestamp) return undefined;
    // A fraction of zeros says no more than none: a whole-second clock may still print ".000".
    const digits = timestamp.fraction.replace(/0+$/, '').length;
    return Math.max(1, timestamp.unitMs / 10 ** digits);
  }
  if (typeof value === 'number' && Number.isInteger(value) && INSTANT_NAME.test(name)) {
    if (value >= 1e9 && value < 1e10) return 1_000;
    if (value >= 1e12 && value < 1e13) return value % 1_000 === 0 ? 1_000 : 1;
  }
  return undefined;
}

/** Every step the timestamps in a JSON value show. */
function stepsIn(value: unknown, name: string, depth: number, into: number[]): number[] {
  const step = stepOf(value, name);
  if (step !== undefined) into.push(step);
  else if (value && typeof value === 'object' && depth < MAX_DEPTH) {
    for (const [key, inner] of Object.entries(value)) stepsIn(inner, Array.isArray(value) ? name : key, depth + 1, into);
  }
  return into;
}

/** The clock the timestamps of these answers show (the finest step any of them shows), or undefined when none carries one. */
export function clockShownIn(...answers: unknown[]): ShownClock | undefined {
  const steps = answers.flatMap((json) => stepsIn(json, '', 0, []));
  return steps.length ? { granularityMs: Math.min(...steps), from: 'shown' } : undefined;
}

/** The clock shown, or whole seconds assumed. */
export function clockOrAssumed(shown: ShownClock | undefined): ShownClock {
  return shown ?? { granularityMs: ASSUMED_GRANULARITY_MS, from: 'assumed' };
}

export const describeClock = (clock: ShownClock): string =>
  `${clock.granularityMs >= 1_000 ? 'whole seconds' : `${clock.granularityMs} ms steps`} (${clock.from === 'shown' ? 'shown by its timestamps' : 'assumed: no timestamp showed it'})`;

/**
 * How long after the create answer an offer declared to expire after
 * `validitySeconds` must be refused: the validity, then the clock's step (a
 * step-granular server judges "past" once the next step has begun, and its
 * creation time may be rounded either way), then the margin — never less
 * than one step.
 */
export function expiryWaitMs(validitySeconds: number, marginMs: number, granularityMs: number): number {
  return validitySeconds * 1_000 + granularityMs + Math.max(marginMs, granularityMs);
}

/** When the answer was complete, on this machine's clock (ms since the epoch). */
export const answeredAt = (res: HttpResponse): number => res.startedAt.getTime() + res.durationMs;

/**
 * How long to wait, from now, until the implementation's clock shows a later
 * step than it can have shown when it made the answer `res`: the server made
 * it before the answer arrived, so one step after the answer's arrival is
 * in a later step of its clock, whatever the phase of its steps.
 */
export function laterStepInMs(res: HttpResponse, granularityMs: number, now = Date.now()): number {
  return Math.max(0, answeredAt(res) + granularityMs - now);
}
