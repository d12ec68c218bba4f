// The verdict of a 429 staircase, from the normalized result of either
// engine. The estimate is the accepted rate of the "plateau" steps — those
// after the first step with 429s — when the bucket is already drained and
// every refill is spent at once (staircase.ts explains why that is unbiased).
import { answered, type CompletionTimeline, type NormalizedRun, type PhaseResult } from '../../result/normalized.ts';
import type { RateStep } from '../../../src/results/load-model.ts';

export interface RateLimitCriteria {
  capRps: number;
  expectedRps?: number;
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
  details?: Record<string, unknown>;
  steps: RateStep[];
  onsetRps?: number;
  estimatedLimitRps?: number;
  /** Requests let through beyond the sustained rate before the first 429 (the burst allowance). */
  estimatedBurst?: number;
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
  if (errors.share > maxShare) {
    const where = overload.filter((p) => p.answers['5xx'] + p.answers.transport > 0).map((p) => `${p.offeredRps} req/s`);
    return {
      verdict: 'FAIL',
      reason: `${(errors.share * 100).toFixed(1)} % of answers under load were server errors or dropped connections (${describeCounts(errors.statuses)}) at ${where.join(', ')}, where a rate limiter answers 429`,
      details: { expected: `429 above the limit, at most ${maxShare * 100} % 5xx/transport failures`, actual: errors.statuses, share: errors.share },
      steps,
      findings,
    };
  }

  const atCap = climb.filter((p) => p.offeredRps >= criteria.capRps * 0.999);
  if (onsetIndex < 0) {
    const sent = climb.reduce((s, p) => s + p.sent, 0);
    const capSec = atCap.reduce((s, p) => s + p.durationSec, 0);
    if (atCap.length === 0) {
      const highest = Math.max(...climb.map((p) => p.offeredRps));
      return {
        verdict: 'INCONCLUSIVE',
        reason: `no 429 up to ${highest} req/s, where the duration budget ended the climb before the cap of ${criteria.capRps} req/s: allow a longer run`,
        steps,
        findings,
      };
    }
    if (criteria.expectedRps && criteria.capRps < criteria.expectedRps) {
      return {
        verdict: 'INCONCLUSIVE',
        reason: `no 429 up to the cap of ${criteria.capRps} req/s, which is below the expected limit of ${criteria.expectedRps} req/s: raise the cap to find the limit`,
        steps,
        findings,
      };
    }
    return {
      verdict: 'FAIL',
      reason: `no 429 up to the cap: ${sent} requests up to ${criteria.capRps} req/s (held ${capSec} s) were all answered without a rate limit`,
      details: { expected: '429 once the rate limit is exceeded', actual: 'no 429', capRps: criteria.capRps, requests: sent },
      steps,
      findings,
    };
  }

  const onset = climb[onsetIndex]!;
  const plateau = climb.slice(onsetIndex + 1);
  let estimate: number;
  let estimateMethod: RateLimitAnalysis['estimateMethod'] = 'plateau-steps';
  const fromTimeline = run.completionTimeline && timelineEstimate(run.completionTimeline);
  if (fromTimeline) {
    estimate = fromTimeline.rps;
    estimateMethod = 'completion-timeline';
  } else if (plateau.length) {
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
  findings.push(...latencyFindings(overload).map((f) => (quiet ? f : { ...f, level: 'INFO' as const, message: `${f.message} (the machine was busy: latency comparisons are unreliable)` })));
  if (criteria.expectedRps && Math.abs(estimate - criteria.expectedRps) > 0.25 * criteria.expectedRps) {
    findings.push({ level: 'WARN', message: `the estimated limit of ${round1(estimate)} req/s differs from the ${criteria.expectedRps} req/s the profile expects by more than 25 %` });
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
    reason: `429 from ${onset.offeredRps} req/s on; estimated limit ${round1(estimate)} req/s${burst > 0 ? `, burst ≈ ${burst}` : ''}${recovered === undefined ? '' : recovered ? '; recovered after backing off' : '; did not recover after backing off'}`,
    steps,
    onsetRps: onset.offeredRps,
    estimatedLimitRps: round1(estimate),
    estimatedBurst: burst > 0 ? burst : undefined,
    estimateMethod,
    recovered,
    findings,
  };
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
      findings.push({
        level: 'WARN',
        message: `at ${p.offeredRps} req/s the median 429 took ${refused.p50Ms} ms against ${accepted.p50Ms} ms for accepted requests: the limiter seems to queue requests rather than shed them`,
      });
    }
  }
  return findings;
}
