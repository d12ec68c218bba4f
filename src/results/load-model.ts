// The load section of results.json: what the 429 and 413 probes and the load
// profiles measured, aggregated (never raw samples), for verdicts and charts.
// Both engines (k6 and embedded) are normalized into this shape.
import type { Verdict } from '../check/model.ts';

export interface LatencySummary {
  p50Ms: number;
  p90Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
}

export type { TimeBucket } from './time-bucket.ts';
import type { TimeBucket } from './time-bucket.ts';

/** One constant-rate step of a rate-limit staircase. `accepted` counts answers that passed the limiter: neither 429 nor 5xx nor a transport failure. */
export interface RateStep {
  offeredRps: number;
  durationSec: number;
  sent: number;
  /** Arrivals the engine could not start (in-flight bound reached). */
  dropped: number;
  accepted: number;
  acceptedRps: number;
  rateLimited: number;
  serverErrors: number;
  transportErrors: number;
  otherStatus: number;
  /** Iterations that ended in their set-up before the measured request (embedded engine): they measured nothing. */
  endedInSetUp?: number;
  /** Share of 429 among the answers of this step, 0..1. */
  share429: number;
  latencyAccepted?: LatencySummary;
  latency429?: LatencySummary;
}

export interface RateLimitHeadersSeen {
  retryAfter?: string;
  /** Any of RateLimit/RateLimit-Policy, RateLimit-Limit/-Remaining/-Reset, X-RateLimit-*. */
  fields: Record<string, string>;
}

export interface RateLimitProbe {
  kind: 'rate-limit';
  /** The check id this probe reports as (e.g. load.token-rate-limit). */
  checkId: string;
  operation: string;
  engine: 'embedded' | 'k6';
  steps: RateStep[];
  /** Lowest offered rate with a sustained 429 share. */
  onsetRps?: number;
  /** Estimate of the sustained limit (plateau of accepted rate). */
  estimatedLimitRps?: number;
  capRps: number;
  expectedLimitRps?: number;
  headers?: RateLimitHeadersSeen;
  recovered?: boolean;
  timeSeries: TimeBucket[];
  verdict: Verdict | 'INCONCLUSIVE';
  reason?: string;
  /** Requests let through above the sustained rate before the first 429 (the burst allowance). */
  estimatedBurst?: number;
  /** arrival-timeline: admitted requests per second of send time while 429s kept coming; completion-timeline: the same by answer time (results written before issue 29); plateau-steps: per-step counts. */
  estimateMethod?: 'arrival-timeline' | 'completion-timeline' | 'plateau-steps';
  /** Seconds waited (Retry-After) before the recovery step. */
  backoffSec?: number;
  /** Set when the load generator could not hold every step (arrivals dropped or started late). */
  generatorNote?: string;
}

export type SizeOutcome = '413' | 'accepted' | 'other-4xx' | '5xx' | 'reset' | 'timeout';

export interface SizeProbeStep {
  sizeBytes: number;
  framing: 'content-length' | 'chunked' | 'expect-100-continue';
  outcome: SizeOutcome;
  status?: number;
  durationMs: number;
  /** Why this size was sent: upper bound, lower bound, bisection, boundary, boundary retry, declared size with the body withheld. */
  purpose?: string;
  /** Bytes of the body actually written (the declared-size probe withholds most of it). */
  sentBytes?: number;
  /** The answer came before the whole body was written. */
  answeredBeforeBodyComplete?: boolean;
  /** The connection broke after the status had been read (a reset after a 413). */
  resetAfterResponse?: boolean;
  /** The Connection header of the answer. */
  connection?: string;
  /** The transport error behind a reset or timeout outcome (ECONNRESET, EPIPE, …). */
  errorCode?: string;
}

export interface BodySizeProbe {
  kind: 'body-size';
  checkId: string;
  operation: string;
  steps: SizeProbeStep[];
  /** Largest size not answered 413. */
  largestAcceptedBytes?: number;
  /** Smallest size answered 413. */
  smallestRejectedBytes?: number;
  requests: number;
  requestBudget: number;
  verdict: Verdict | 'INCONCLUSIVE';
  reason?: string;
}

export interface ProfileRun {
  kind: 'profile';
  scenario: string;
  operation: string;
  engine: 'embedded' | 'k6';
  targetRps: number;
  achievedRps: number;
  durationSec: number;
  requests: number;
  dropped: number;
  statusCounts: Record<string, number>;
  latency: LatencySummary;
  thresholds: Array<{ name: string; ok: boolean }>;
  timeSeries: TimeBucket[];
}

export interface LoadSection {
  engine: 'embedded' | 'k6';
  startedAt: string;
  durationMs: number;
  probes: Array<RateLimitProbe | BodySizeProbe>;
  profiles: ProfileRun[];
}
