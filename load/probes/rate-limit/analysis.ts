// The verdict of a 429 staircase, from the normalized result of either
// engine. The estimate is the accepted rate of the "plateau" steps — those
// after the first step with 429s — when the bucket is already drained and
// every refill is spent at once (staircase.ts explains why that is unbiased).
//
// What backs each verdict (DESIGN.md principle 2): section 8 names a rate
// limit on the token endpoint and on accept, with status 429, but not its
// value. So
//   - 5xx or dropped connections under overload FAIL on the spec's text: where
//     the load is refused, 8 names the status, 429 ("Rate limit (status 429)");
//   - no 429 up to the cap is INCONCLUSIVE: the limit may be above the cap, as
//     its value is "not shown" — unless the profile documents the limit and the
//     probe went well above it, a profile-declared FAIL (declaredBy);
//   - everything else observed (429s below the limit, a collapse, slow 429s,
//     no recovery, an estimate off the documented value) is a finding.
import { answered, type CompletionTimeline, type NormalizedRun, type PhaseResult } from '../../result/normalized.ts';
import type { RateStep } from '../../../src/results/load-model.ts';

export interface RateLimitCriteria {
  capRps: number;
  /** The limit the profile documents (req/s); the spec does not show it (8). */
  expectedRps?: number;
  /** Where expectedRps comes from (`load.tokenRateLimit.expectedRps`): named by a profile-declared FAIL. */
  expectedRpsKey?: string;
  /** The burst the profile documents on top of expectedRps (else one second's worth is assumed). */
  burst?: number;
  /** Share of 5xx and transport failures tolerated under overload (default 1 %). */
  maxServerErrorShare?: number;
}

export interface AnalysisFinding {
  level: 'WARN' | 'INFO';
  message: string;
  details?: Record<string, unknown>;
}

export interface RateLimitAnalysis {
  verdict: 'PASS' | 'FAIL' | 'INCONCLUSIVE';
  /** One line: why FAIL or INCONCLUSIVE, or what was found. */
  reason: string;
  /** Set on a FAIL that contradicts the profile (a documented limit), not the spec's text: the profile key. */
  declaredBy?: string;
  details?: Record<string, unknown>;
  steps: RateStep[];
  onsetRps?: number;
  estimatedLimitRps?: number;
  /** Requests let through beyond the sustained rate before the first 429 (the burst allowance). */
  estimatedBurst?: number;
  /**
   * Where the limit may lie when the estimate is only its lower bound: a
   * limiter without burst allowance admits between half its rate and its
   * rate of requests that come faster than it, depending on their spacing.
   */
  limitRangeRps?: [number, number];
  /** How the estimate was read: from when answers completed (embedded engine) or from the plateau steps' counts. */
  estimateMethod?: 'completion-timeline' | 'plateau-steps';
  recovered?: boolean;
  findings: AnalysisFinding[];
}

export const DEFAULT_MAX_SERVER_ERROR_SHARE = 0.01;
/**
 * A step "has 429s" from this share on (and at least three): a few refusals
 * after a stall on a busy machine are not an onset, while a step that drains
 * the bucket refuses a large share (the staircase is planned so it does).
 */
const ONSET_SHARE = 0.05;
const ONSET_COUNT = 3;
const BELOW_LIMIT_SHARE = 0.8;
/** Share of the recovery step's answers that must pass the limiter again. */
const RECOVERED_SHARE = 0.95;
/**
 * How far a measured limit may lie from the documented one before it is
 * called different (the estimate's own error is a few per cent): "no 429"
 * contradicts a documented limit only once the probe went this far above it.
 */
export const DOCUMENTED_LIMIT_TOLERANCE = 0.25;

const round1 = (n: number) => Math.round(n * 10) / 10;

/** Answers that passed the limiter: neither 429 nor 5xx nor a transport failure. */
export function admitted(phase: PhaseResult): number {
  return phase.answers['2xx'] + phase.answers['3xx'] + phase.answers['4xx'];
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

function serverErrorShare(phases: PhaseResult[]): { share: number; count: number; total: number; statuses: Record<string, number> } {
  let count = 0;
  let total = 0;
  const statuses: Record<string, number> = {};
  for (const p of phases) {
    count += p.answers['5xx'] + p.answers.transport;
    total += answered(p);
    for (const [status, n] of Object.entries(p.statusCounts)) if (status === '0' || Number(status) >= 500) statuses[status] = (statuses[status] ?? 0) + n;
    for (const [code, n] of Object.entries(p.errors ?? {})) statuses[code] = (statuses[code] ?? 0) + n;
  }
  delete statuses['0'];
  return { share: total ? count / total : 0, count, total, statuses };
}

function describeCounts(counts: Record<string, number>): string {
  return Object.entries(counts)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} ×${n}`)
    .join(', ');
}

export function analyzeRateLimit(run: NormalizedRun, criteria: RateLimitCriteria): RateLimitAnalysis {
  const climb = run.phases.filter((p) => p.tags.role !== 'recovery');
  const recovery = run.phases.find((p) => p.tags.role === 'recovery');
  const steps = run.phases.map(toRateStep);
  const findings: AnalysisFinding[] = [];
  const maxShare = criteria.maxServerErrorShare ?? DEFAULT_MAX_SERVER_ERROR_SHARE;
  if (climb.length === 0) return { verdict: 'INCONCLUSIVE', reason: 'no step of the staircase ran', steps, findings };
  if (run.generator.saturated) findings.push({ level: 'INFO', message: `the load generator did not hold every step: ${run.generator.reason}` });

  const onsetIndex = climb.findIndex(hasOnset);
  const overload = onsetIndex >= 0 ? climb.slice(onsetIndex) : climb;
  const errors = serverErrorShare(overload);
  const first = climb[0]!;
  if (errors.share > maxShare && onsetIndex !== 0 && serverErrorShare([first]).share > maxShare) {
    // Failing at the lowest rate already is not load being refused: the conformance checks judge those answers.
    return {
      verdict: 'INCONCLUSIVE',
      reason: `already at ${first.offeredRps} req/s, the lowest rate, answers were server errors or dropped connections (${describeCounts(serverErrorShare([first]).statuses)}): they do not come with load, so they say nothing about a rate limit`,
      steps,
      findings,
    };
  }
  if (errors.share > maxShare) {
    // Spec 8, "Rate limit (status 429)": load the service refuses is refused with 429, not a 5xx or a dropped connection.
    const where = overload.filter((p) => p.answers['5xx'] + p.answers.transport > 0).map((p) => `${p.offeredRps} req/s`);
    return {
      verdict: 'FAIL',
      reason: `${(errors.share * 100).toFixed(1)} % of answers under load were server errors or dropped connections (${describeCounts(errors.statuses)}) at ${where.join(', ')}, where a rate limiter answers 429`,
      details: { expected: `429 above the limit, at most ${maxShare * 100} % 5xx/transport failures`, actual: errors.statuses, share: errors.share },
      steps,
      findings,
    };
  }

  if (onsetIndex < 0) return noLimitFound(climb, criteria, steps, findings);

  const onset = climb[onsetIndex]!;
  const plateau = climb.slice(onsetIndex + 1);
  let estimate: number;
  let estimateMethod: RateLimitAnalysis['estimateMethod'] = 'plateau-steps';
  const stepwise = run.completionTimeline && refillEstimate(run.completionTimeline);
  const fromTimeline = run.completionTimeline && timelineEstimate(run.completionTimeline);
  if (stepwise && stepwise.rps !== undefined) {
    // A limiter that refills in steps (a fixed window): read over whole refill periods, not the refused tail of each.
    estimate = stepwise.rps;
    estimateMethod = 'completion-timeline';
    if ((stepwise.periodSec ?? 0) >= 0.5) {
      findings.push({
        level: 'INFO',
        message: `admissions came in bursts every ${round1(stepwise.periodSec ?? 0)} s with only 429s between (a fixed-window limiter?): the limit is read over ${stepwise.periods} whole refill period(s)`,
      });
    }
  } else if (fromTimeline && !stepwise) {
    estimate = fromTimeline.rps;
    estimateMethod = 'completion-timeline';
  } else if (plateau.length) {
    // Also where the limiter refills in steps but showed fewer than two refills: whole steps are the next best span.
    if (stepwise) findings.push({ level: 'INFO', message: 'admissions came in bursts with only 429s between (a fixed-window limiter?), too few to read whole periods: the limit is read from the plateau steps' });
    const acceptedSum = plateau.reduce((s, p) => s + admitted(p), 0);
    const secSum = plateau.reduce((s, p) => s + p.durationSec, 0);
    estimate = acceptedSum / secSum;
  } else {
    // Only the onset step saw 429s: its accepted rate still holds part of the burst, so it overstates the limit.
    estimate = admitted(onset) / onset.durationSec;
    findings.push({ level: 'INFO', message: `429s appeared only in the last step (${onset.offeredRps} req/s): the estimate includes part of the burst and may be high` });
  }
  const before = climb.slice(0, onsetIndex + 1);
  const burst = Math.round(before.reduce((s, p) => s + admitted(p) - Math.min(p.offeredRps, estimate) * p.durationSec, 0));

  for (const p of climb) {
    if (p.offeredRps <= BELOW_LIMIT_SHARE * estimate && hasOnset(p)) {
      findings.push({ level: 'WARN', message: `${p.answers['429']} × 429 at ${p.offeredRps} req/s, well below the estimated limit of ${round1(estimate)} req/s` });
    }
  }
  for (const p of plateau) {
    const rate = admitted(p) / p.durationSec;
    if (rate < 0.7 * estimate) {
      findings.push({ level: 'WARN', message: `accepted throughput fell to ${round1(rate)} req/s at ${p.offeredRps} req/s offered (estimate ${round1(estimate)}): it collapses under overload instead of holding the limit` });
    }
  }
  // On a starved machine queued requests end as slow 429s whatever the limiter does: then latency is only noted.
  const quiet = !run.generator.saturated && (run.generator.scheduleLagP99Ms ?? 0) < 20;
  findings.push(...latencyFindings(overload).map((f) => (quiet ? f : { ...f, message: `${f.message} (the machine was busy: latency comparisons are unreliable)` })));
  // Requests closer than 1/rate are refused by a limiter without burst allowance, so it admits less than its rate (≥ half) under overload.
  const burstless = burst <= Math.max(2, 0.02 * estimate);
  const range: [number, number] = burstless ? [round1(estimate), round1(2 * estimate)] : [round1(estimate), round1(estimate)];
  if (burstless) {
    findings.push({
      level: 'INFO',
      message: `no burst allowance was measured (≈ ${Math.max(0, burst)}): such a limiter refuses requests closer together than 1/rate, so of an overload it admits between half its rate and its rate — the limit lies between ${range[0]} and ${range[1]} req/s`,
    });
  }
  const expected = criteria.expectedRps;
  if (expected && (range[0] > (1 + DOCUMENTED_LIMIT_TOLERANCE) * expected || range[1] < (1 - DOCUMENTED_LIMIT_TOLERANCE) * expected)) {
    findings.push({
      level: 'WARN',
      message: `the estimated limit of ${burstless ? `${range[0]}–${range[1]}` : round1(estimate)} req/s differs from the ${expected} req/s the profile documents${criteria.expectedRpsKey ? ` (${criteria.expectedRpsKey})` : ''} by more than ${DOCUMENTED_LIMIT_TOLERANCE * 100} %`,
    });
  }

  let recovered: boolean | undefined;
  if (recovery) {
    // A limiter that has not recovered refuses most; a stray 429 after a stall on a busy machine is not that.
    const total = answered(recovery);
    recovered = total > 0 && admitted(recovery) >= RECOVERED_SHARE * total;
    if (!recovered) {
      findings.push({
        level: 'WARN',
        message: `after backing off, ${recovery.answers['429']} of ${total} requests at ${recovery.offeredRps} req/s (below the estimated limit) were still refused`,
      });
    }
  }
  return {
    verdict: 'PASS',
    reason:
      `429 from ${onset.offeredRps} req/s on; estimated limit ${round1(estimate)} req/s` +
      (burstless ? ` (at least: no burst allowance, so up to ${range[1]} req/s)` : burst > 0 ? `, burst ≈ ${burst}` : '') +
      (recovered === undefined ? '' : recovered ? '; recovered after backing off' : '; did not recover after backing off'),
    steps,
    onsetRps: onset.offeredRps,
    estimatedLimitRps: round1(estimate),
    ...(burstless ? { limitRangeRps: range } : {}),
    estimatedBurst: burst > 0 ? burst : undefined,
    estimateMethod,
    recovered,
    findings,
  };
}

/**
 * No step drew 429s. The spec shows that a limit exists but not its value
 * (8), so a limit above the cap contradicts nothing: INCONCLUSIVE. Only a
 * limit the profile documents can be contradicted, and only once the probe
 * went far enough above it that a limiter at that rate — allowing the
 * documented tolerance and burst — must have refused: a profile-declared FAIL.
 */
function noLimitFound(climb: PhaseResult[], criteria: RateLimitCriteria, steps: RateStep[], findings: AnalysisFinding[]): RateLimitAnalysis {
  const sent = climb.reduce((s, p) => s + p.sent, 0);
  const highest = Math.max(...climb.map((p) => p.offeredRps));
  const atCap = climb.filter((p) => p.offeredRps >= criteria.capRps * 0.999);
  const capSec = atCap.reduce((s, p) => s + p.durationSec, 0);
  const expected = criteria.expectedRps;
  const key = criteria.expectedRpsKey ?? 'the documented limit (expectedRps)';
  // A few stray 429s (below the onset share) are no limit holding the rate; say so rather than "none".
  const stray = climb.reduce((s, p) => s + p.answers['429'], 0);
  const answeredHow = stray ? `were answered with only ${stray} × 429, too few for a rate limit holding` : 'were all answered without a rate limit';
  if (!expected) {
    if (atCap.length === 0) {
      return {
        verdict: 'INCONCLUSIVE',
        reason: `no 429 up to ${highest} req/s, where the duration budget ended the climb before the cap of ${criteria.capRps} req/s: allow a longer run`,
        steps,
        findings,
      };
    }
    return {
      verdict: 'INCONCLUSIVE',
      reason:
        `no 429 up to the cap: ${sent} requests up to ${criteria.capRps} req/s (held ${round1(capSec)} s) ${answeredHow}. ` +
        `The spec does not show the limit's value (8) and the profile documents none (${key}), so it may lie above the cap: document it, or raise the cap`,
      details: { capRps: criteria.capRps, requests: sent },
      steps,
      findings,
    };
  }
  const tolerated = (1 + DOCUMENTED_LIMIT_TOLERANCE) * expected;
  const burst = criteria.burst ?? expected;
  // Requests beyond what a limiter at the tolerated rate would admit from a full bucket.
  const excess = climb.reduce((s, p) => s + Math.max(0, admitted(p) - tolerated * p.durationSec), 0);
  if (excess <= burst) {
    return {
      verdict: 'INCONCLUSIVE',
      reason:
        `no 429 up to ${highest} req/s, not far enough above the ${expected} req/s the profile documents (${key}) to contradict it: ` +
        `${Math.round(excess)} requests beyond ${round1(tolerated)} req/s, no more than the burst of ${burst}` +
        (criteria.capRps < tolerated ? `; raise the cap of ${criteria.capRps} req/s` : ': allow a longer run'),
      steps,
      findings,
    };
  }
  return {
    verdict: 'FAIL',
    declaredBy: criteria.expectedRpsKey,
    reason:
      `no 429 up to the cap: ${sent} requests up to ${criteria.capRps} req/s (held ${round1(capSec)} s) ${answeredHow}, ` +
      `though the profile documents a limit of ${expected} req/s (${key}); ${Math.round(excess)} requests beyond ${round1(tolerated)} req/s were admitted`,
    details: { expected: `429 above the documented ${expected} req/s (burst ${burst})`, actual: 'no 429', capRps: criteria.capRps, requests: sent, admittedBeyondTolerance: Math.round(excess) },
    steps,
    findings,
  };
}

/** A stretch of completion slots this long with 429s and not one admitted answer is a limiter waiting for its next refill. */
const REFILL_GAP_SLOTS_MS = 50;
/** Share of drained 100 ms windows with no admitted answer from which the limiter counts as refilling in steps. */
const STEPWISE_SHARE = 0.3;

/**
 * The limit of a limiter that refills in steps, such as a fixed window: it
 * admits a whole window's quota at once and then refuses until the next
 * window, so the drained stretches hold only 429s and timelineEstimate's
 * windows see almost nothing admitted. Read instead from refill to refill:
 * the answers admitted between the first and the last refill, over the time
 * between them, count whole periods only. Undefined when the timeline does
 * not look stepwise (a token bucket refills continuously); without rps when
 * it does but shows fewer than two refills.
 */
export function refillEstimate(timeline: CompletionTimeline): { rps?: number; periods: number; periodSec?: number } | undefined {
  const per = Math.max(1, Math.round(100 / timeline.resolutionMs));
  const windows = Math.floor(timeline.admitted.length / per);
  let drained = 0;
  let empty = 0;
  for (let w = 0; w < windows; w++) {
    let a = 0;
    let l = 0;
    for (let i = w * per; i < (w + 1) * per; i++) {
      a += timeline.admitted[i]!;
      l += timeline.limited[i]!;
    }
    if (l === 0) continue;
    drained++;
    if (a === 0) empty++;
  }
  if (drained < 3 || empty / drained < STEPWISE_SHARE) return undefined;

  const gapSlots = Math.max(1, Math.round(REFILL_GAP_SLOTS_MS / timeline.resolutionMs));
  const refills: number[] = [];
  let refusedOnly = 0;
  for (let i = 0; i < timeline.admitted.length; i++) {
    const admittedHere = timeline.admitted[i]!;
    if (admittedHere > 0 && refusedOnly >= gapSlots) refills.push(i);
    if (admittedHere > 0) refusedOnly = 0;
    else if (timeline.limited[i]! > 0 || refusedOnly > 0) refusedOnly++;
  }
  if (refills.length < 2) return { periods: 0 };
  const first = refills[0]!;
  const last = refills[refills.length - 1]!;
  let sum = 0;
  for (let i = first; i < last; i++) sum += timeline.admitted[i]!;
  const spanSec = ((last - first) * timeline.resolutionMs) / 1000;
  const periods = refills.length - 1;
  return { rps: sum / spanSec, periods, periodSec: spanSec / periods };
}

/**
 * The limit read from the completion timeline: admitted answers per second
 * over the windows in which the bucket stayed drained — 429s in the window
 * and in both neighbours. Once drained, every token is spent the moment it
 * refills, so admitted answers arrive at exactly the sustained rate; reading
 * them by completion time keeps this true when a busy server falls behind
 * the arrivals (a stall only delays the spending of tokens, it loses none).
 */
export function timelineEstimate(timeline: CompletionTimeline, windowMs = 100): { rps: number; windows: number } | undefined {
  const per = Math.max(1, Math.round(windowMs / timeline.resolutionMs));
  const count = Math.floor(timeline.admitted.length / per);
  const admittedIn: number[] = [];
  const limitedIn: number[] = [];
  for (let w = 0; w < count; w++) {
    let a = 0;
    let l = 0;
    for (let i = w * per; i < (w + 1) * per; i++) {
      a += timeline.admitted[i]!;
      l += timeline.limited[i]!;
    }
    admittedIn.push(a);
    limitedIn.push(l);
  }
  let sum = 0;
  let windows = 0;
  for (let w = 1; w < count - 1; w++) {
    if (limitedIn[w - 1]! > 0 && limitedIn[w]! > 0 && limitedIn[w + 1]! > 0) {
      sum += admittedIn[w]!;
      windows++;
    }
  }
  if (windows < 3) return undefined;
  return { rps: sum / ((windows * per * timeline.resolutionMs) / 1000), windows };
}

/**
 * A limiter sheds load: a 429 costs the server less than an accepted
 * request, so within one step 429s answer at least as fast. Compared within
 * the step (medians), so a busy machine slowing everything down does not
 * read as queueing.
 */
function latencyFindings(overload: PhaseResult[]): AnalysisFinding[] {
  const findings: AnalysisFinding[] = [];
  for (const p of overload) {
    const refused = p.latency['429'];
    const accepted = p.latency['2xx'];
    if (!refused || !accepted || refused.count < 10) continue;
    if (refused.p50Ms > Math.max(3 * accepted.p50Ms, accepted.p50Ms + 100)) {
      // How fast a 429 comes is not shown anywhere in the spec: noted for the reviewer, never a warning.
      findings.push({
        level: 'INFO',
        message: `at ${p.offeredRps} req/s the median 429 took ${refused.p50Ms} ms against ${accepted.p50Ms} ms for accepted requests: the limiter seems to queue requests rather than shed them`,
      });
    }
  }
  return findings;
}
