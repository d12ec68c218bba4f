// The verdict when no step of the staircase drew 429s.
import { answered, type PhaseResult } from '../../result/normalized.ts';
import type { RateStep } from '../../../src/results/load-model.ts';
import { OPERATION_NAMES } from '../../../src/spec/status-codes.ts';
import { DEFAULT_MAX_SERVER_ERROR_SHARE, DOCUMENTED_LIMIT_TOLERANCE, round1, type AnalysisFinding, type RateLimitAnalysis, type RateLimitCriteria } from './model.ts';
import { describeShortfall, describeTransient, generatorFellBehind, overloadAnswers, shareOf, SPEC_OPERATION, type LimitedOperation } from './overload.ts';

/** Answers of the step that are not the limiter's 429, the generator's own failures aside: what a limiter would have refused. */
function notLimited(phase: PhaseResult, operation: LimitedOperation): number {
  return answered(phase) - phase.answers['429'] - overloadAnswers([phase], operation).excused.count;
}

/**
 * No step drew 429s. The spec shows that a limit exists but not its value
 * (8), so a limit above the cap contradicts nothing: INCONCLUSIVE — or ERROR
 * when gateway answers and dropped connections, which are no answer of the
 * limiter, came beyond the tolerated share: they may have hidden it. Only a
 * limit the profile documents can be contradicted, and only once the probe
 * went far enough above it that a limiter at that rate — allowing the
 * documented tolerance and burst — must have refused: a profile-declared
 * FAIL, whatever came instead of its 429 (admitted, a gateway's answer, a
 * dropped connection). Only steps the generator held count towards that FAIL:
 * a step that fell behind started its arrivals late, into the next step's
 * time, so its count over its planned length overstates the rate the target
 * was offered; when such steps are all that could contradict the limit, or
 * the cap was not reached for them, the reason names the shortfall, not the
 * run's length.
 */
export function noLimitFound(climb: PhaseResult[], criteria: RateLimitCriteria & { operation: LimitedOperation }, steps: RateStep[], findings: AnalysisFinding[]): RateLimitAnalysis {
  const sent = climb.reduce((s, p) => s + p.sent, 0);
  const highest = Math.max(...climb.map((p) => p.offeredRps));
  const atCap = climb.filter((p) => p.offeredRps >= criteria.capRps * 0.999);
  const capSec = atCap.reduce((s, p) => s + p.durationSec, 0);
  const expected = criteria.expectedRps;
  const key = criteria.expectedRpsKey ?? 'the documented limit (expectedRps)';
  // A few stray 429s (below the onset share) are no limit holding the rate; say so rather than "none".
  const stray = climb.reduce((s, p) => s + p.answers['429'], 0);
  const under = overloadAnswers(climb, criteria.operation);
  const instead = under.transient.count ? describeTransient(under, OPERATION_NAMES[SPEC_OPERATION[criteria.operation]]) : '';
  const shortfall = describeShortfall(climb);
  const notOffered = shortfall
    ? `; the generator did not hold its plan (${shortfall}), so the target was not offered the staircase planned: run where it can (a less busy machine, or more room in flight, load.caps.inFlight, where arrivals were dropped for want of it)`
    : '';
  const answeredHow =
    (stray ? `were answered with only ${stray} × 429, too few for a rate limit holding` : instead ? 'got no 429' : 'were all answered without a rate limit') +
    (instead ? ` (instead: ${instead}, which are not the limiter's answers)` : '');
  if (!expected && shareOf(under.transient, under.total) > (criteria.maxServerErrorShare ?? DEFAULT_MAX_SERVER_ERROR_SHARE)) {
    return {
      verdict: 'ERROR',
      reason:
        `not observed: no 429 up to ${highest} req/s, and ${(shareOf(under.transient, under.total) * 100).toFixed(1)} % of the answers were ${instead}: transient answers that decide nothing, and may hide the limiter. ` +
        `Document the limit (${key}) to judge the answers beyond it`,
      details: { requests: sent, instead: under.transient.by },
      steps,
      findings,
    };
  }
  if (!expected) {
    if (atCap.length === 0) {
      return {
        verdict: 'INCONCLUSIVE',
        reason: `no 429 up to ${highest} req/s, where the duration budget ended the climb before the cap of ${criteria.capRps} req/s: allow a longer run${notOffered}`,
        steps,
        findings,
      };
    }
    return {
      verdict: 'INCONCLUSIVE',
      reason:
        `no 429 up to the cap: ${sent} requests up to ${criteria.capRps} req/s (held ${round1(capSec)} s) ${answeredHow}. ` +
        `The spec does not show the limit's value (8) and the profile documents none (${key}), so it may lie above the cap: document it, or raise the cap${notOffered}`,
      details: { capRps: criteria.capRps, requests: sent },
      steps,
      findings,
    };
  }
  const tolerated = (1 + DOCUMENTED_LIMIT_TOLERANCE) * expected;
  const burst = criteria.burst ?? expected;
  // Requests beyond what a limiter at the tolerated rate would admit from a full bucket, answered otherwise than with its 429, in the steps the generator held.
  const excess = climb.filter((p) => !generatorFellBehind(p)).reduce((s, p) => s + Math.max(0, notLimited(p, criteria.operation) - tolerated * p.durationSec), 0);
  if (excess <= burst) {
    return {
      verdict: 'INCONCLUSIVE',
      reason:
        `no 429 up to ${highest} req/s, not far enough above the ${expected} req/s the profile documents (${key}) to contradict it: ` +
        `${Math.round(excess)} requests beyond ${round1(tolerated)} req/s${shortfall ? ' in the steps the generator held' : ''}, no more than the burst of ${burst}` +
        (criteria.capRps < tolerated ? `; raise the cap of ${criteria.capRps} req/s` : notOffered || ': allow a longer run'),
      steps,
      findings,
    };
  }
  return {
    verdict: 'FAIL',
    declaredBy: criteria.expectedRpsKey,
    declaredValue: expected,
    reason:
      `no 429 up to the cap: ${sent} requests up to ${criteria.capRps} req/s (held ${round1(capSec)} s) ${answeredHow}, ` +
      `though the profile documents a limit of ${expected} req/s (${key}); ${Math.round(excess)} requests beyond ${round1(tolerated)} req/s got no 429`,
    details: {
      expected: `429 above the documented ${expected} req/s (burst ${burst})`,
      actual: 'no 429',
      capRps: criteria.capRps,
      requests: sent,
      notRefusedBeyondTolerance: Math.round(excess),
      ...(instead ? { instead: under.transient.by } : {}),
    },
    steps,
    findings,
  };
}
