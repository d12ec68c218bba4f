// Before a climb: how long the operation takes to answer when it is asked
// little, so that the staircase can be sized for it (staircase.ts: steps
// that last past their answers, enough requests in flight). A few iterations
// at a low rate; the slowest answer counts, since a step must outlast its
// slow answers rather than its typical ones.
import { runEngine, type EngineOptions } from '../../engine/engine.ts';
import { heldInFlightSec, latencyStretchSec, staircaseScenarios } from '../../scenarios/staircase.ts';
import type { LoadScenario, PlannedStep } from '../../scenarios/types.ts';

/** Three arrivals, 100 ms apart: far below any limit worth probing, so they are answered as the operation answers alone. */
const PILOT_STEP: PlannedStep = { name: 'pilot', role: 'climb', rate: 10, durationSec: 0.3, startSec: 0 };

/** Where and how the pilot reaches the target: the climb's engine options (what only the climb observes is left out). */
export type PilotOptions = Omit<EngineOptions, 'scenario' | 'rateLimitExpected'>;

/** The slowest answer of the pilot in ms, or undefined when none came (the climb then sizes from what the profile declares). */
async function observeAnswerTimeMs(options: PilotOptions, scenario: LoadScenario): Promise<number | undefined> {
  // Not the climb's: its decisions, progress, captured iterations, timeline or answer samples.
  const { onPhaseEnd, onProgress, capture, timelineResolutionMs, onAnswer, segment, ...reach } = options;
  const run = await runEngine({ ...reach, scenario: { ...scenario, ...staircaseScenarios([PILOT_STEP], 8) }, rateLimitExpected: true });
  const latency = run.phases[0]?.latency.all;
  return latency && latency.count > 0 ? latency.maxMs : undefined;
}

/** How a staircase is planned for answers that take latencyMs (undefined: as fast as they come, the plan the pilot runs). */
export type PlanFor = (latencyMs?: number) => LoadScenario;

/**
 * The staircase sized for how long the operation takes to answer: observed
 * by the pilot, else what the profile declares (declaredMs); said through
 * log when it changes the plan.
 */
export async function sizedStaircase(options: PilotOptions, planFor: PlanFor, declaredMs: number | undefined, log?: (line: string) => void): Promise<LoadScenario> {
  const observed = options.signal?.aborted ? undefined : await observeAnswerTimeMs(options, planFor());
  const latencyMs = observed ?? declaredMs;
  const stretch = latencyStretchSec(latencyMs);
  if (latencyMs !== undefined && stretch > 0) {
    const how = observed !== undefined ? 'answers took up to' : 'the profile declares';
    const heldSec = Math.round(heldInFlightSec(latencyMs) * 100) / 100;
    log?.(`${how} ${Math.round(latencyMs)} ms: each step lasts ${stretch} s longer and keeps up to ${heldSec} s of arrivals in flight`);
  }
  return planFor(latencyMs);
}
