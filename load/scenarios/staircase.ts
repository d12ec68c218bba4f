// The 429 staircase, planned from token-bucket arithmetic (LOAD-NOTES.md).
//
// A limiter of sustained rate L with burst B lets a client offering r > L
// through untouched for B / (r − L) seconds before the first 429; a linear
// ramp therefore sees 429s only well above L. So the climb is a staircase of
// constant-rate steps run back to back: below L the bucket stays full; once
// a step drains it, it stays drained for every later (higher) step, whose
// accepted rate is then exactly L. The estimate is read from those later
// "plateau" steps, so neither the burst nor the step boundaries bias it.
import { formatDuration } from './duration.ts';
import { DROPPED, phaseSubmetricThresholds } from './metrics.ts';
import type { ConstantArrivalRate, PlannedStep, Thresholds } from './types.ts';

export interface StaircaseInput {
  capRps: number;
  maxDurationSec: number;
  expectedRps?: number;
  burst?: number;
  /** Step length when the limit is not known (default 1 s). */
  stepSec?: number;
  /** How long an answer takes when nothing else is asked of the target (observed, or declared): stretches each step (latencyStretchSec). */
  latencyMs?: number;
}

/** Accepted requests are counted over at least this long once the bucket is drained: ±1 token is ±1 % at 100 req/s. */
export const PLATEAU_SEC = 1;
/** Rate of the recovery step, as a share of the estimated (or expected) limit: well below it, nothing may be refused. */
export const RECOVERY_SHARE = 0.8;
export const RECOVERY_SEC = 1;
/** Geometric climb from cap/16 when nothing is known about the limit. */
const BLIND_START_DIVISOR = 16;
const BLIND_FACTOR = 2;

const round = (rate: number) => Math.max(1, Math.round(rate));

/** Answers faster than this leave the steps as they are: the step's own length covers them. */
const NEGLIGIBLE_LATENCY_MS = 100;

/**
 * What a step is lengthened by for an operation that takes latencyMs to
 * answer: the climb decides on a step's answers when its arrivals end, and
 * only requests sent more than latencyMs before then have been answered, so
 * without it a slow endpoint's step would be judged on almost nothing (the
 * step's own counts are taken by arrival once every answer is in). 10 % on
 * top for the spread of the answer times.
 */
export function latencyStretchSec(latencyMs: number | undefined): number {
  return latencyMs === undefined || latencyMs < NEGLIGIBLE_LATENCY_MS ? 0 : round2((1.1 * latencyMs) / 1000);
}

/** Seconds until a full bucket of `burst` is spent at `rate` against a refill of `limit` per second. */
export function drainSec(burst: number, rate: number, limit: number): number {
  return rate > limit ? burst / (rate - limit) : Infinity;
}

function step(index: number, rate: number, durationSec: number, startSec: number): PlannedStep {
  return { name: `step-${String(index + 1).padStart(2, '0')}`, role: 'climb', rate: round(rate), durationSec, startSec };
}

/**
 * The climb. With an expected limit E (and burst B, else assumed one second's
 * worth, E): a step at E/2 (nothing may be refused), one at 1.5·E long enough
 * to drain B with margin, and a plateau/overload step at 2.25·E — all capped.
 * Without E: doubling steps from cap/16 to the cap. Either way the cap is
 * then held until twice the expected burst would have drained (or two more
 * steps), within the duration budget, so "no 429 up to the cap" means it.
 */
export function planClimb(input: StaircaseInput): PlannedStep[] {
  const cap = input.capRps;
  const rates: Array<{ rate: number; durationSec: number }> = [];
  const stepSec = input.stepSec ?? 1;
  const expected = input.expectedRps;
  if (expected && expected > 0) {
    const burst = input.burst ?? expected;
    rates.push({ rate: Math.min(cap, 0.5 * expected), durationSec: 0.5 });
    const onset = Math.min(cap, 1.5 * expected);
    const onsetDrain = drainSec(burst, onset, expected);
    rates.push({ rate: onset, durationSec: Number.isFinite(onsetDrain) ? round2(onsetDrain * 1.5 + 0.25) : stepSec });
    rates.push({ rate: Math.min(cap, 2.25 * expected), durationSec: PLATEAU_SEC });
  } else {
    for (let rate = cap / BLIND_START_DIVISOR; rate < cap; rate *= BLIND_FACTOR) rates.push({ rate, durationSec: stepSec });
    rates.push({ rate: cap, durationSec: stepSec });
  }
  // Hold the cap: the limit may sit just under it, or the burst may be large.
  const holdSec =
    expected && cap > expected ? Math.max(PLATEAU_SEC, (2 * (input.burst ?? expected)) / (cap - expected)) : 2 * stepSec;
  if (rates[rates.length - 1]!.rate >= cap) rates.push({ rate: cap, durationSec: round2(holdSec) });
  else rates.push({ rate: cap, durationSec: round2(Math.max(stepSec, holdSec)) });

  const steps: PlannedStep[] = [];
  const stretch = latencyStretchSec(input.latencyMs);
  let start = 0;
  for (const { rate, durationSec } of rates) {
    const budgetLeft = input.maxDurationSec - RECOVERY_SEC - start;
    if (budgetLeft <= 0.25) break;
    const duration = Math.min(round2(durationSec + stretch), round2(budgetLeft));
    steps.push(step(steps.length, rate, duration, start));
    start = round2(start + duration);
  }
  return steps;
}

export function recoveryStep(index: number, rate: number, startSec: number, durationSec = RECOVERY_SEC): PlannedStep {
  return { ...step(index, rate, durationSec, startSec), name: 'recovery', role: 'recovery' };
}

function round2(seconds: number): number {
  return Math.round(seconds * 100) / 100;
}

/**
 * In-flight bound for a step: what k6 calls VUs. Generous — half a second of
 * arrivals, or one and a half times the answer time's worth when answers take
 * longer (latencyMs): a limiter that queues needs room to show it, and a slow
 * operation holds every request it admitted that long (Little's law: in
 * flight = rate × time in the system), so a tighter bound would drop the
 * arrivals the step is meant to offer.
 */
export function vusFor(rate: number, maxInFlight: number, latencyMs = 0): number {
  return Math.max(4, Math.min(maxInFlight, Math.ceil(rate * heldInFlightSec(latencyMs)) + 20));
}

/** The seconds of arrivals a step keeps room for in flight (vusFor): half a second, or one and a half answer times. */
export function heldInFlightSec(latencyMs = 0): number {
  return Math.max(0.5, (1.5 * latencyMs) / 1000);
}

/** The steps as k6 constant-arrival-rate scenarios plus the thresholds that surface their sub-metrics; latencyMs as vusFor. */
export function staircaseScenarios(steps: PlannedStep[], maxInFlight: number, latencyMs?: number): { scenarios: Record<string, ConstantArrivalRate>; thresholds: Thresholds } {
  const scenarios: Record<string, ConstantArrivalRate> = {};
  const thresholds: Thresholds = { [DROPPED]: ['count==0'] };
  for (const s of steps) {
    const vus = vusFor(s.rate, maxInFlight, latencyMs);
    scenarios[s.name] = {
      executor: 'constant-arrival-rate',
      rate: s.rate,
      timeUnit: '1s',
      duration: formatDuration(s.durationSec),
      startTime: formatDuration(s.startSec),
      // A step must not spill into the next one: stragglers are cut after 2 s, or after the answer time and 2 s.
      gracefulStop: formatDuration(round2(2 + (latencyMs ?? 0) / 1000)),
      preAllocatedVUs: Math.min(vus, Math.ceil(s.rate / 20) + 2),
      maxVUs: vus,
      tags: { phase: s.name, role: s.role, offered: String(s.rate) },
    };
    Object.assign(thresholds, phaseSubmetricThresholds(s.name));
  }
  return { scenarios, thresholds };
}
