// Runs a 429 staircase on the embedded engine: climb until 429s appear plus
// one plateau step (or until a failure is already certain), back off for as
// long as Retry-After asks, then offer 80 % of the estimate to see the
// limiter let everything through again. A climb that drew no 429 while the
// generator did not hold its plan (a starved machine running ptas, or the
// in-flight bound) did not offer the target the staircase planned: it is
// climbed again, up to MAX_CLIMBS in all and within the probe's load budget
// (README "Verdicts": timing decides nothing; retried, then said).
import { runEngine, type EngineOptions, type PhaseDecision } from '../../engine/engine.ts';
import type { ErrorSample, NormalizedRun, PhaseResult } from '../../result/normalized.ts';
import { describeShortfall, overloadAnswers, type LimitedOperation } from './overload.ts';
import { PLATEAU_SEC, RECOVERY_SEC, recoveryStep, RECOVERY_SHARE, staircaseScenarios } from '../../scenarios/staircase.ts';
import type { LoadScenario, PlannedStep } from '../../scenarios/types.ts';
import { analyzeRateLimit, DEFAULT_MAX_SERVER_ERROR_SHARE, hasOnset, RATE_LIMIT_SENTENCE, type RateLimitAnalysis, type RateLimitCriteria } from './analysis.ts';
import { advisedWaitSec } from './headers.ts';
import { sizedStaircase, type PlanFor } from './pilot.ts';

export interface RateLimitRunOptions extends Omit<EngineOptions, 'scenario' | 'onPhaseEnd' | 'rateLimitExpected'> {
  /** The staircase as planned; or, with planFor, the staircase planned for the answer time a pilot observes. */
  scenario: LoadScenario | { planFor: PlanFor; declaredLatencyMs?: number };
  criteria: RateLimitCriteria;
  /** Longest wait honoured from Retry-After before the recovery step. */
  maxBackoffSec?: number;
  /**
   * The longest load the probe may offer in all, seconds (load.caps.durationSeconds, or the stage's default;
   * waiting is not load): a climb is climbed again only while another one and the recovery step still fit.
   * Without it, the staircase climbs once.
   */
  loadBudgetSec?: number;
  /** Called between the climb and the back-off (the accept probe reads refused offers back here). */
  afterClimb?: (climb: NormalizedRun) => Promise<void>;
  log?: (line: string) => void;
}

export interface RateLimitRun {
  run: NormalizedRun;
  analysis: RateLimitAnalysis;
  /** The steps of the climbs before the last, which drew no 429 while the generator fell behind (analyzeRateLimit notes them). */
  earlierClimbs: PhaseResult[][];
  backoffSec?: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Climbs in all, at most, of a staircase whose climbs draw no 429 while the generator falls behind. */
export const MAX_CLIMBS = 3;
/** The pause before climbing again: the limiter's bucket refills, a stalled machine catches up. */
const CLIMB_AGAIN_AFTER_MS = 1000;

/**
 * Adapts the climb: once a step shows 429s, the bucket is drained, so one
 * more step at the same rate (a plateau, no extra overload) is all the
 * estimate needs; refusals that count against the target beyond the
 * tolerated share end the climb early, as the verdict is already certain.
 */
function climbController(maxServerErrorShare: number, maxInFlight: number, operation: LimitedOperation, latencyMs: number | undefined): (phase: PhaseResult) => PhaseDecision {
  let onsetSeen = false;
  return (phase) => {
    if (onsetSeen) return 'stop';
    // Only what counts against the target (overload.ts): a listed 503, a gateway's 502/504 or the generator's own time-outs go on climbing.
    const { total, against } = overloadAnswers([phase], operation);
    if (total > 0 && against.count >= 5 && against.count / total > maxServerErrorShare) return 'stop';
    if (!hasOnset(phase)) return 'continue';
    onsetSeen = true;
    const plateau: PlannedStep = { name: `${phase.name}-plateau`, role: 'climb', rate: phase.offeredRps, durationSec: PLATEAU_SEC, startSec: 0 };
    return { replaceRest: staircaseScenarios([plateau], maxInFlight, latencyMs).scenarios };
  };
}

/**
 * Seconds to back off, bounded: the last 429's Retry-After, else the reset of
 * the quota its rate-limit fields say refused, else one second — what a 429
 * carries is not shown (7, 8), so none of them may be relied on.
 */
export function backoffFrom(run: NormalizedRun, maxSec: number): number {
  const samples = run.headerSamples.filter((s) => s.status === 429);
  const last = samples[samples.length - 1];
  return Math.min(maxSec, Math.max(0.2, last ? advisedWaitSec(last.headers, last.status) ?? 1 : 1));
}

/** Both runs' error samples, one of each kind (status and Content-Type), the first run's first. */
function errorSamplesOf(first: NormalizedRun, later: NormalizedRun): Pick<NormalizedRun, 'errorSamples'> {
  const kind = (s: ErrorSample) => `${s.status} ${s.headers['content-type'] ?? ''}`;
  const seen = new Set((first.errorSamples ?? []).map(kind));
  const all = [...(first.errorSamples ?? []), ...(later.errorSamples ?? []).filter((s) => !seen.has(kind(s)))];
  return all.length ? { errorSamples: all } : {};
}

/** Appends the phases of a later run, with start times on the first run's clock. */
export function appendRun(first: NormalizedRun, later: NormalizedRun): NormalizedRun {
  const offsetSec = (Date.parse(later.startedAt) - Date.parse(first.startedAt)) / 1000;
  const shifted = later.phases.map((p) => ({ ...p, startSec: Math.round((p.startSec + offsetSec) * 100) / 100 }));
  const shiftSeconds = Math.round(offsetSec);
  return {
    ...first,
    durationMs: Math.round(offsetSec * 1000 + later.durationMs),
    phases: [...first.phases, ...shifted],
    thresholds: [...first.thresholds, ...later.thresholds],
    timeSeries: [...first.timeSeries, ...later.timeSeries.map((b) => ({ ...b, tSec: b.tSec + shiftSeconds }))],
    headerSamples: [...first.headerSamples, ...later.headerSamples],
    ...errorSamplesOf(first, later),
    generator: first.generator.saturated || !later.generator.saturated ? first.generator : later.generator,
  };
}

/** Each step of the climb as it ends, with the climb's number (1, then 2 … when climbed again): a live view draws the staircase as it climbs. */
export type OnClimbStep = (step: PhaseResult, climb: number) => void;

/** The climb's controller, telling `onStep` of each step first; an observer that throws does not stop the climb. */
function observed(controller: (phase: PhaseResult) => PhaseDecision, onStep: OnClimbStep | undefined, climb: number): (phase: PhaseResult) => PhaseDecision {
  if (!onStep) return controller;
  return (phase) => {
    try {
      onStep(phase, climb);
    } catch {
      // A live view's trouble is not the probe's.
    }
    return controller(phase);
  };
}

export async function runRateLimitProbe(options: RateLimitRunOptions & { onStep?: OnClimbStep }): Promise<RateLimitRun> {
  const { log } = options;
  const scenario = 'planFor' in options.scenario ? await sizedStaircase(options, options.scenario.planFor, options.scenario.declaredLatencyMs, log) : options.scenario;
  // Section 7's row of the operation the scenario measures (user details is no rate-limited operation: token's row).
  const criteria: RateLimitCriteria = { ...options.criteria, operation: options.criteria.operation ?? (scenario.operation === 'accept' ? 'accept' : 'token') };
  const climbSteps = (scenario.steps ?? []).filter((s) => s.role === 'climb');
  const maxInFlight = options.maxInFlight ?? 512;
  const climbScenario = { ...scenario, ...staircaseScenarios(climbSteps, maxInFlight, scenario.latencyMs) };
  const climbOnce = (n: number) =>
    runEngine({
      ...options,
      scenario: climbScenario,
      rateLimitExpected: true,
      timelineResolutionMs: 10,
      onPhaseEnd: observed(climbController(criteria.maxServerErrorShare ?? DEFAULT_MAX_SERVER_ERROR_SHARE, maxInFlight, criteria.operation!, scenario.latencyMs), options.onStep, n),
    });
  // The climbs before the last are kept with the result (analyzeRateLimit notes each): nothing measured is lost.
  const earlierClimbs: PhaseResult[][] = [];
  const plannedClimbSec = climbSteps.reduce((s, step) => s + step.durationSec, 0);
  let climb = await climbOnce(1);
  let preliminary = analyzeRateLimit(climb, criteria);
  let loadSec = climb.durationMs / 1000;
  for (let n = 2; n <= MAX_CLIMBS && !options.signal?.aborted; n++) {
    const shortfall = heldBack(climb, preliminary);
    if (!shortfall) break;
    if (loadSec + plannedClimbSec + RECOVERY_SEC > (options.loadBudgetSec ?? 0)) {
      if (options.loadBudgetSec !== undefined) log?.(`climb ${n - 1} drew no 429 while the generator did not hold its plan (${shortfall}); another climb would pass the probe's ${options.loadBudgetSec} s of load`);
      break;
    }
    log?.(`climb ${n - 1} drew no 429 while the generator did not hold its plan (${shortfall}): climbing again (${n}/${MAX_CLIMBS})`);
    earlierClimbs.push(climb.phases);
    await sleep(CLIMB_AGAIN_AFTER_MS);
    climb = await climbOnce(n);
    preliminary = analyzeRateLimit(climb, criteria, earlierClimbs);
    loadSec += climb.durationMs / 1000;
  }
  if (options.afterClimb) await options.afterClimb(climb);
  if (preliminary.verdict !== 'PASS' || preliminary.estimatedLimitRps === undefined || options.signal?.aborted) {
    return { run: climb, analysis: preliminary, earlierClimbs };
  }

  const backoffSec = backoffFrom(climb, options.maxBackoffSec ?? 10);
  log?.(`backing off ${backoffSec} s (Retry-After), then ${Math.round(RECOVERY_SHARE * preliminary.estimatedLimitRps)} req/s to check recovery`);
  await sleep(backoffSec * 1000);
  const step = recoveryStep(0, Math.min(criteria.capRps, RECOVERY_SHARE * preliminary.estimatedLimitRps), 0);
  const recovery = await runEngine({
    ...options,
    scenario: { ...scenario, ...staircaseScenarios([step], maxInFlight, scenario.latencyMs) },
    rateLimitExpected: true,
  });
  const run = appendRun(climb, recovery);
  return { run, analysis: analyzeRateLimit(run, criteria, earlierClimbs), earlierClimbs, backoffSec };
}

/**
 * The generator's shortfall in words when a climb drew no 429 and some step
 * fell behind its plan (overload.ts generatorFellBehind); undefined when the
 * climb saw the limit, held its plan, or ended on server errors counted
 * against the target (its analysis FAILs on 8's 429: answers, not timing).
 */
function heldBack(climb: NormalizedRun, analysis: RateLimitAnalysis): string | undefined {
  if (climb.phases.some(hasOnset) || analysis.on === RATE_LIMIT_SENTENCE) return undefined;
  return describeShortfall(climb.phases);
}

