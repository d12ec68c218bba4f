// What a 429 staircase is judged against (RateLimitCriteria) and what the
// judgement says (RateLimitAnalysis), with the thresholds every part of the
// analysis shares.
import type { RateStep } from '../../../src/results/load-model.ts';
import type { LimitedOperation } from './overload.ts';

export interface RateLimitCriteria {
  capRps: number;
  /** The limit the profile documents (req/s); the spec does not show it (8). */
  expectedRps?: number;
  /** Where expectedRps comes from (`load.tokenRateLimit.expectedRps`): named by a profile-declared FAIL. */
  expectedRpsKey?: string;
  /** The burst the profile documents on top of expectedRps (else one second's worth is assumed). */
  burst?: number;
  /**
   * Share tolerated under overload of the answers that count against the
   * target (overload.ts: 5xx outside section 7's list other than a
   * gateway's; default 1 %), and of gateway answers and dropped connections
   * before they are a warning (or, with no 429 and no documented limit, ERROR).
   */
  maxServerErrorShare?: number;
  /** The operation, for section 7's list of its codes; else read from the scenario's name. */
  operation?: LimitedOperation;
}

export interface AnalysisFinding {
  level: 'WARN' | 'INFO';
  message: string;
  details?: Record<string, unknown>;
}

export interface RateLimitAnalysis {
  /** ERROR: the limiter could not be observed (only gateway answers and dropped connections came instead of 429s). */
  verdict: 'PASS' | 'FAIL' | 'INCONCLUSIVE' | 'ERROR';
  /** One line: why FAIL, INCONCLUSIVE or ERROR, or what was found. */
  reason: string;
  /** Set on a FAIL that contradicts the profile (a documented limit), not the spec's text: the profile key, and its value. */
  declaredBy?: string;
  declaredValue?: unknown;
  /** The catalogue sentence a spec FAIL rests on (schemas/requirements.json sentences). */
  on?: string;
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
  /** How the estimate was read: from when the admitted and refused requests were sent (an arrival timeline), or from the plateau steps' counts. */
  estimateMethod?: 'arrival-timeline' | 'plateau-steps';
  recovered?: boolean;
  findings: AnalysisFinding[];
}

export const DEFAULT_MAX_SERVER_ERROR_SHARE = 0.01;
/**
 * How far a measured limit may lie from the documented one before it is
 * called different (the estimate's own error is a few per cent): "no 429"
 * contradicts a documented limit only once the probe went this far above it.
 */
export const DOCUMENTED_LIMIT_TOLERANCE = 0.25;

export const round1 = (n: number) => Math.round(n * 10) / 10;
