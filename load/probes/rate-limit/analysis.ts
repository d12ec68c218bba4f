// The verdict of a 429 staircase, from the normalized result of either
// engine. estimate.ts reads the limit; findings.ts notes what else was seen;
// no-limit.ts judges a staircase that drew no 429s.
//
// What backs each verdict: section 8 names a rate limit on the token
// endpoint and on accept, with status 429, but not its value. So
//   - load refused otherwise than with 429 — a 5xx the one judgement of a
//     server error FAILs (another status than 429 on the token endpoint, one
//     accept's row does not list), or connections the target dropped while
//     the generator kept up (overload.ts) — FAILs on 8's "Rate limit (status
//     429) | Token endpoint, accept trade offer"; 503 on accept (listed) is
//     load shed, a listed 500 on accept a warning, a gateway's 502 or 504
//     and the generator's own failures nobody's;
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
import { admitted, describeCounts, hasOnset, toRateStep } from './steps.ts';
import { overloadAnswers, RATE_LIMIT_SENTENCE, shareOf, SPEC_OPERATION, type LimitedOperation, type OverloadAnswers } from './overload.ts';
import { OPERATION_NAMES, SECTION_7_CODES } from '../../../src/spec/status-codes.ts';

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
  const refused = overloadVerdict(run, climb, overload, onsetIndex, criteria, steps, findings);
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

export { RATE_LIMIT_SENTENCE } from './overload.ts';

/** The operation whose section 7 row applies: the criteria's, else the scenario's name (accept-rate-breakpoint). */
function operationOf(run: NormalizedRun, criteria: RateLimitCriteria): LimitedOperation {
  return criteria.operation ?? (run.scenario.startsWith('accept') ? 'accept' : 'token');
}

/** What the answers under overload that do not count against the target add to the findings. */
function overloadNotes(under: OverloadAnswers, operation: LimitedOperation, maxShare: number, findings: AnalysisFinding[]): void {
  const name = OPERATION_NAMES[SPEC_OPERATION[operation]];
  if (under.excused.count) {
    findings.push({
      level: 'INFO',
      message: `${under.excused.count} transport failure(s) under load (${describeCounts(under.excused.by)}) were the generator's own time-outs or came in steps it could not hold: not counted against the target`,
    });
  }
  if (under.shed.count) findings.push({ level: 'INFO', message: `load was shed with 503 ×${under.shed.count}, an answer section 7 lists for ${name}` });
  if (under.gateway.count) findings.push({ level: 'INFO', message: `${under.gateway.count} answer(s) under load were a gateway's (${describeCounts(under.gateway.by)}): the path to the target failed, which decides nothing` });
  if (shareOf(under.listed, under.total) > maxShare) {
    findings.push({
      level: 'WARN',
      message: `${(shareOf(under.listed, under.total) * 100).toFixed(1)} % of the answers under load were server errors that say nothing of the rate limit (${describeCounts(under.listed.by)}): one section 7 lists for ${name} may refuse an offer a later iteration superseded (4.4 rule 1), and one whose code was not recorded cannot be judged`,
    });
  }
}

/**
 * Load refused otherwise than with 429 — 5xx outside section 7's list, or
 * connections the target dropped while the generator kept up (overload.ts)
 * — beyond maxShare: a FAIL on 8's "Rate limit (status 429)"; INCONCLUSIVE
 * when they came at the lowest rate already; undefined when within maxShare.
 */
function overloadVerdict(run: NormalizedRun, climb: PhaseResult[], overload: PhaseResult[], onsetIndex: number, criteria: RateLimitCriteria, steps: RateStep[], findings: AnalysisFinding[]): RateLimitAnalysis | undefined {
  const maxShare = criteria.maxServerErrorShare ?? DEFAULT_MAX_SERVER_ERROR_SHARE;
  const operation = operationOf(run, criteria);
  const under = overloadAnswers(overload, operation);
  overloadNotes(under, operation, maxShare, findings);
  const share = shareOf(under.against, under.total);
  if (share <= maxShare) return undefined;
  const first = overloadAnswers([climb[0]!], operation);
  if (onsetIndex !== 0 && shareOf(first.against, first.total) > maxShare) {
    // Failing at the lowest rate already is not load being refused: the conformance checks judge those answers.
    return {
      verdict: 'INCONCLUSIVE',
      reason: `already at ${climb[0]!.offeredRps} req/s, the lowest rate, answers were server errors or dropped connections (${describeCounts(first.against.by)}): they do not come with load, so they say nothing about a rate limit`,
      steps,
      findings,
    };
  }
  const name = OPERATION_NAMES[SPEC_OPERATION[operation]];
  const kinds = [
    under.against.count > under.dropped ? (operation === 'token' ? `server errors where 8 names 429 for ${name}` : `server errors section 7 does not list for ${name}`) : '',
    under.dropped ? 'dropped connections while the generator kept up' : '',
  ].filter(Boolean);
  const where = overload.filter((p) => overloadAnswers([p], operation).against.count > 0).map((p) => `${p.offeredRps} req/s`);
  return {
    verdict: 'FAIL',
    on: RATE_LIMIT_SENTENCE,
    reason: `${(share * 100).toFixed(1)} % of the answers under load were ${kinds.join(' or ')} (${describeCounts(under.against.by)}) at ${where.join(', ')}, where the rate limit's status is 429`,
    details: {
      expected: `429 above the limit (8); at most ${maxShare * 100} % other refusals outside section 7's list for ${name} (${SECTION_7_CODES[SPEC_OPERATION[operation]].join(', ')})`,
      actual: under.against.by,
      share,
    },
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
