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

/** One second (or one bucket) of a load run. */
export interface TimeBucket {
  /** Seconds since the start of the run. */
  tSec: number;
  offered: number;
  sent: number;
  status2xx: number;
  status429: number;
  status5xx: number;
  /** Other statuses plus transport failures (resets, timeouts). */
  other: number;
  p95Ms?: number;
}

/** One constant-rate step of a rate-limit staircase. */
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
}

export type SizeOutcome = '413' | 'accepted' | 'other-4xx' | '5xx' | 'reset' | 'timeout';

export interface SizeProbeStep {
  sizeBytes: number;
  framing: 'content-length' | 'chunked' | 'expect-100-continue';
  outcome: SizeOutcome;
  status?: number;
  durationMs: number;
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
