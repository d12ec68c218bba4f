// The staircase's steps read one by one: what passed the limiter, whether a
// step drew enough 429s to count as the onset, and how counts are written in
// reasons.
import { answered, type PhaseResult } from '../../result/normalized.ts';
import type { RateStep } from '../../../src/results/load-model.ts';
import { round1, type AnalysisFinding } from './model.ts';

/**
 * A step "has 429s" from this share on (and at least three): a few refusals
 * after a stall on a busy machine are not an onset, while a step that drains
 * the bucket refuses a large share (the staircase is planned so it does).
 */
const ONSET_SHARE = 0.05;
const ONSET_COUNT = 3;

/** Answers that passed the limiter: neither 429 nor 5xx nor a transport failure. */
export function admitted(phase: PhaseResult): number {
  return phase.answers['2xx'] + phase.answers['3xx'] + phase.answers['4xx'];
}

/**
 * Share of a step's iterations that may end in their set-up (the offer an
 * accept needs, refused because the suite's own token ran out mid-run) with
 * the step still judged: beyond it, what the step admitted says too little
 * about the limiter.
 */
const UNMEASURED_SHARE = 0.1;

/** Iterations of a step that ended in their set-up, before the measured request: they measured nothing. */
export function endedInSetUp(phase: Pick<PhaseResult, 'setupFailed'>): number {
  let total = 0;
  for (const n of Object.values(phase.setupFailed ?? {})) total += n;
  return total;
}

/** Whether enough of a step's iterations reached the measured request for its throughput to say something. */
export function measuredEnough(phase: PhaseResult): boolean {
  return endedInSetUp(phase) <= UNMEASURED_SHARE * phase.sent;
}

/** Why a step is left out of a judgment: its iterations ended in their set-up. */
export function setUpNote(phase: PhaseResult, consequence: string): AnalysisFinding {
  const failed = phase.setupFailed ?? {};
  const refusedToken = failed['401'] ? `; 401 is the target refusing the suite's own access token, which is renewed as the run goes` : '';
  return {
    level: 'INFO',
    message: `${endedInSetUp(phase)} of the ${phase.sent} iterations at ${phase.offeredRps} req/s ended in their set-up, before the measured request (set-up answers: ${describeCounts(failed)}${refusedToken}): ${consequence}`,
  };
}

export function toRateStep(phase: PhaseResult): RateStep {
  const total = answered(phase);
  const accepted = admitted(phase);
  return {
    offeredRps: phase.offeredRps,
    durationSec: phase.durationSec,
    sent: phase.sent,
    dropped: phase.dropped,
    accepted,
    acceptedRps: phase.durationSec > 0 ? round1(accepted / phase.durationSec) : 0,
    rateLimited: phase.answers['429'],
    serverErrors: phase.answers['5xx'],
    transportErrors: phase.answers.transport,
    otherStatus: phase.answers['3xx'] + phase.answers['4xx'],
    ...(phase.setupFailed ? { endedInSetUp: endedInSetUp(phase) } : {}),
    share429: total ? phase.answers['429'] / total : 0,
    latencyAccepted: phase.latency['2xx'] && pick(phase.latency['2xx']),
    latency429: phase.latency['429'] && pick(phase.latency['429']),
  };
}

function pick(l: { p50Ms: number; p90Ms: number; p95Ms: number; p99Ms: number; maxMs: number }) {
  return { p50Ms: l.p50Ms, p90Ms: l.p90Ms, p95Ms: l.p95Ms, p99Ms: l.p99Ms, maxMs: l.maxMs };
}

export function hasOnset(phase: PhaseResult): boolean {
  const total = answered(phase);
  return phase.answers['429'] >= ONSET_COUNT && total > 0 && phase.answers['429'] / total >= ONSET_SHARE;
}

export function describeCounts(counts: Record<string, number>): string {
  return Object.entries(counts)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} ×${n}`)
    .join(', ');
}
