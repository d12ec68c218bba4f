// The verdict of a 429 staircase, from the normalized result of either
// engine. estimate.ts reads the limit; findings.ts notes what else was seen;
// no-limit.ts judges a staircase that drew no 429s.
//
// What backs each verdict: section 8 names a rate limit on the token
// endpoint and on accept, with status 429, but not its value. So
//   - load refused otherwise than with 429 — a 5xx outside the operation's
//     section 7 list that is no gateway's (overload.ts) — FAILs on 8's "Rate
//     limit (status 429) | Token endpoint, accept trade offer"; 503 on accept
//     (listed) is load shed, a listed 500 a warning, the generator's own
//     failures nobody's; a gateway status the row does not list (502, 504,
//     503 on the token endpoint) and a dropped connection are no answer of the
//     limiter: named, a warning beyond the tolerated share, never a FAIL;
//   - no 429 up to the cap is INCONCLUSIVE: the limit may be above the cap, as
//     its value is "not shown" — unless the profile documents the limit and the
//     probe went well above it, a profile-declared FAIL (declaredBy), or
//     gateway answers and dropped connections hid the limiter: ERROR;
//   - everything else observed (429s below the limit, a collapse, slow 429s,
//     no recovery, an estimate off the documented value) is a finding.
import type { NormalizedRun, PhaseResult } from '../../result/normalized.ts';
import type { RateStep } from '../../../src/results/load-model.ts';
import { estimateLimit, type LimitEstimate } from './estimate.ts';
import { limitRange, overloadFindings, recoveryCheck, type LimitRange } from './findings.ts';
import { DEFAULT_MAX_SERVER_ERROR_SHARE, round1, type AnalysisFinding, type RateLimitAnalysis, type RateLimitCriteria } from './model.ts';
import { noLimitFound } from './no-limit.ts';
import { admitted, describeCounts, hasOnset, toRateStep } from './steps.ts';
import { describeShortfall, describeTransient, overloadAnswers, shareOf, SPEC_OPERATION, type LimitedOperation, type OverloadAnswers } from './overload.ts';
import { OPERATION_NAMES, SECTION_7_CODES } from '../../../src/spec/status-codes.ts';

export { DEFAULT_MAX_SERVER_ERROR_SHARE, DOCUMENTED_LIMIT_TOLERANCE, type AnalysisFinding, type RateLimitAnalysis, type RateLimitCriteria } from './model.ts';
export { refillEstimate, timelineEstimate } from './estimate.ts';
export { hasOnset } from './steps.ts';

/**
 * The verdict of the staircase `run` (its last climb and its recovery step).
 * `earlierClimbs`: the steps of climbs before it, each of which drew no 429
 * while the generator fell behind its plan (run.ts climbs again then): noted,
 * never judged.
 */
export function analyzeRateLimit(run: NormalizedRun, criteria: RateLimitCriteria, earlierClimbs: readonly (readonly PhaseResult[])[] = []): RateLimitAnalysis {
  const climb = run.phases.filter((p) => p.tags.role !== 'recovery');
  const recovery = run.phases.find((p) => p.tags.role === 'recovery');
  const steps = run.phases.map(toRateStep);
  const findings: AnalysisFinding[] = earlierClimbs.map((phases, i) => ({
    level: 'INFO',
    message: `climb ${i + 1} drew no 429 while the generator did not hold its plan (${describeShortfall(phases) ?? 'every step held'}): the target was not offered the staircase planned, so it was climbed again`,
  }));
  if (climb.length === 0) return { verdict: 'INCONCLUSIVE', reason: 'no step of the staircase ran', steps, findings };
  if (run.generator.saturated) findings.push({ level: 'INFO', message: `the load generator did not hold every step: ${run.generator.reason}` });

  const onsetIndex = climb.findIndex(hasOnset);
  const overload = onsetIndex >= 0 ? climb.slice(onsetIndex) : climb;
  const refused = overloadVerdict(run, climb, overload, onsetIndex, criteria, steps, findings);
  if (refused) return refused;
  if (onsetIndex < 0) return noLimitFound(climb, { ...criteria, operation: operationOf(run, criteria) }, steps, findings);

  const onset = climb[onsetIndex]!;
  const plateau = climb.slice(onsetIndex + 1);
  const estimated = estimateLimit(run, onset, plateau, findings);
  const estimate = estimated.estimate;
  const before = climb.slice(0, onsetIndex + 1);
  const burst = Math.round(before.reduce((s, p) => s + admitted(p) - Math.min(p.offeredRps, estimate) * p.durationSec, 0));
  findings.push(...overloadFindings(run, climb, plateau, overload, estimate));
  const range = limitRange(estimate, burst, criteria, findings, [onset, ...plateau]);
  const recovered = recoveryCheck(recovery, findings, range.burstless);
  return passVerdict(onset, estimated, burst, range, recovered, steps, findings);
}

/** The sentence a refusal otherwise than with 429 contradicts: 8 names the rate limit's status. */
export const RATE_LIMIT_SENTENCE = 'SPEC-8-RATE-LIMIT';

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
  if (under.transient.count) {
    const share = shareOf(under.transient, under.total);
    findings.push({
      level: share > maxShare ? 'WARN' : 'INFO',
      message: `${(share * 100).toFixed(1)} % of the answers under load were ${describeTransient(under, name)}: not the limiter's answers, transient, so they decide nothing (README "Verdicts")`,
    });
  }
  if (shareOf(under.listed, under.total) > maxShare) {
    findings.push({
      level: 'WARN',
      message: `${(shareOf(under.listed, under.total) * 100).toFixed(1)} % of the answers under load were server errors (${describeCounts(under.listed.by)}): section 7 lists them for ${name} without a condition, so no sentence makes them a failure`,
    });
  }
}

/**
 * Load refused otherwise than with 429 — a 5xx outside section 7's list that
 * is no gateway's (overload.ts) — beyond maxShare: a FAIL on 8's "Rate limit
 * (status 429)"; INCONCLUSIVE when they came at the lowest rate already;
 * undefined when within maxShare.
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
      reason: `already at ${climb[0]!.offeredRps} req/s, the lowest rate, answers were server errors (${describeCounts(first.against.by)}): they do not come with load, so they say nothing about a rate limit`,
      steps,
      findings,
    };
  }
  const name = OPERATION_NAMES[SPEC_OPERATION[operation]];
  const where = overload.filter((p) => overloadAnswers([p], operation).against.count > 0).map((p) => `${p.offeredRps} req/s`);
  return {
    verdict: 'FAIL',
    on: RATE_LIMIT_SENTENCE,
    reason: `${(share * 100).toFixed(1)} % of the answers under load were server errors section 7 does not list for ${name}, and no gateway's (${describeCounts(under.against.by)}) at ${where.join(', ')}, where the rate limit's status is 429`,
    details: {
      expected: `429 above the limit (8); at most ${maxShare * 100} % other refusals outside section 7's list for ${name} (${SECTION_7_CODES[SPEC_OPERATION[operation]].join(', ')}) besides a gateway's 502, 503, 504`,
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
