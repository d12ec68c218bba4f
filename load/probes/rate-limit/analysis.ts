// The verdict of a 429 staircase, from the normalized result of either
// engine. estimate.ts reads the limit; findings.ts notes what else was seen;
// no-limit.ts judges a staircase that drew no 429s.
//
// What backs each verdict: section 8 names a rate limit on the token
// endpoint and on accept, with status 429, but not its value. So
//   - 5xx or dropped connections under overload FAIL on the spec's text: where
//     the load is refused, 8 names the status, 429 ("Rate limit (status 429)");
//   - no 429 up to the cap is INCONCLUSIVE: the limit may be above the cap, as
//     its value is "not shown" — unless the profile documents the limit and the
//     probe went well above it, a profile-declared FAIL (declaredBy);
//   - everything else observed (429s below the limit, a collapse, slow 429s,
//     no recovery, an estimate off the documented value) is a finding.
import type { NormalizedRun, PhaseResult } from '../../result/normalized.ts';
import type { RateStep } from '../../../src/results/load-model.ts';
import { estimateLimit, type LimitEstimate } from './estimate.ts';
import { limitRange, overloadFindings, recoveryCheck, type LimitRange } from './findings.ts';
import { DEFAULT_MAX_SERVER_ERROR_SHARE, round1, type AnalysisFinding, type RateLimitAnalysis, type RateLimitCriteria } from './model.ts';
import { noLimitFound } from './no-limit.ts';
import { admitted, describeCounts, hasOnset, serverErrorShare, toRateStep } from './steps.ts';

export { DEFAULT_MAX_SERVER_ERROR_SHARE, DOCUMENTED_LIMIT_TOLERANCE, type AnalysisFinding, type RateLimitAnalysis, type RateLimitCriteria } from './model.ts';
export { refillEstimate, timelineEstimate } from './estimate.ts';
export { hasOnset } from './steps.ts';

export function analyzeRateLimit(run: NormalizedRun, criteria: RateLimitCriteria): RateLimitAnalysis {
  const climb = run.phases.filter((p) => p.tags.role !== 'recovery');
  const recovery = run.phases.find((p) => p.tags.role === 'recovery');
  const steps = run.phases.map(toRateStep);
  const findings: AnalysisFinding[] = [];
  if (climb.length === 0) return { verdict: 'INCONCLUSIVE', reason: 'no step of the staircase ran', steps, findings };
  if (run.generator.saturated) findings.push({ level: 'INFO', message: `the load generator did not hold every step: ${run.generator.reason}` });

  const onsetIndex = climb.findIndex(hasOnset);
  const overload = onsetIndex >= 0 ? climb.slice(onsetIndex) : climb;
  const refused = serverErrorVerdict(climb, overload, onsetIndex, criteria.maxServerErrorShare ?? DEFAULT_MAX_SERVER_ERROR_SHARE, steps, findings);
  if (refused) return refused;
  if (onsetIndex < 0) return noLimitFound(climb, criteria, steps, findings);

  const onset = climb[onsetIndex]!;
  const plateau = climb.slice(onsetIndex + 1);
  const estimated = estimateLimit(run, onset, plateau, findings);
  const estimate = estimated.estimate;
  const before = climb.slice(0, onsetIndex + 1);
  const burst = Math.round(before.reduce((s, p) => s + admitted(p) - Math.min(p.offeredRps, estimate) * p.durationSec, 0));
  findings.push(...overloadFindings(run, climb, plateau, overload, estimate));
  const range = limitRange(estimate, burst, criteria, findings);
  const recovered = recoveryCheck(recovery, findings);
  return passVerdict(onset, estimated, burst, range, recovered, steps, findings);
}

/**
 * Too many server errors or dropped connections: a FAIL under overload, but
 * INCONCLUSIVE when they came at the lowest rate already; undefined when
 * their share is within maxShare.
 */
function serverErrorVerdict(
  climb: PhaseResult[],
  overload: PhaseResult[],
  onsetIndex: number,
  maxShare: number,
  steps: RateStep[],
  findings: AnalysisFinding[],
): RateLimitAnalysis | undefined {
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
  if (errors.share <= maxShare) return undefined;
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

function passVerdict(
  onset: PhaseResult,
  { estimate, estimateMethod }: LimitEstimate,
  burst: number,
  { burstless, range }: LimitRange,
  recovered: boolean | undefined,
  steps: RateStep[],
  findings: AnalysisFinding[],
): RateLimitAnalysis {
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
