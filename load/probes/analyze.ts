// The one analysis of a normalized result, whichever engine produced it and
// however many instances it was merged from: a 429 staircase gets its
// rate-limit verdict (rate-limit/analysis.ts), a load profile its
// thresholds' (thresholds.ts).
import type { NormalizedRun } from '../result/normalized.ts';
import { analyzeRateLimit, type RateLimitAnalysis, type RateLimitCriteria } from './rate-limit/analysis.ts';
import { thresholdVerdict } from './thresholds.ts';

export type LoadVerdict = 'PASS' | 'FAIL' | 'INCONCLUSIVE' | 'ERROR';

export interface RunAnalysis {
  verdict: LoadVerdict;
  reason: string;
  /** The staircase's analysis (steps, estimate, findings), for a rate breakpoint. */
  rateLimit?: RateLimitAnalysis;
  /** A load profile's: its thresholds decided (the user's targets, not a rule of the spec). */
  judgedBy?: 'thresholds';
}

export function analyzeRun(run: NormalizedRun, kind: 'rate-breakpoint' | 'profile', criteria?: RateLimitCriteria): RunAnalysis {
  if (kind === 'profile') return thresholdVerdict(run);
  if (!criteria) throw new Error(`${run.scenario}: a rate breakpoint is judged against its criteria (cap, documented limit)`);
  const rateLimit = analyzeRateLimit(run, criteria);
  return { verdict: rateLimit.verdict, reason: rateLimit.reason, rateLimit };
}
