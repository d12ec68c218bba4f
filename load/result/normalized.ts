// The normalized result of one load run. The embedded engine writes it
// directly; a k6 run produces it in handleSummary() (from-k6-summary.ts) plus
// the time series of its NDJSON output. The probes' analysis reads only this,
// so both engines get the same verdict. Aggregates only, never raw samples.
// One instance of a distributed run (instance.ts) adds its execution segment
// and its latency as HDR histograms, so instances add up (load/distributed).
import type { Outcome } from '../scenarios/metrics.ts';
import type { InstanceInfo } from './instance.ts';

export const RESULT_FORMAT = 'ptas-load-result';

export interface LatencyStats {
  count: number;
  avgMs: number;
  p50Ms: number;
  p90Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** One k6 scenario (a staircase step, or a profile's main phase). */
export interface PhaseResult {
  name: string;
  tags: Record<string, string>;
  /** Planned mean arrival rate. */
  offeredRps: number;
  startSec: number;
  durationSec: number;
  /** Iterations started. */
  sent: number;
  /** Arrivals dropped because the in-flight bound (k6: maxVUs) was reached. */
  dropped: number;
  /** Of the dropped arrivals, those the generator could not start on time (embedded engine only). */
  late?: number;
  answers: Record<Outcome, number>;
  /** Exact status codes (0: transport failure); empty when the engine cannot tell (k6 summary). */
  statusCounts: Record<string, number>;
  latency: { all?: LatencyStats; '2xx'?: LatencyStats; '429'?: LatencyStats };
  /** Iterations started per second over the span they were actually started in. */
  achievedRps: number;
  /**
   * Iterations that ended in their set-up, before the measured request was
   * sent, by what ended them: the set-up request's status (0: transport
   * failure) or "unreadable" (no value could be taken from its answer). They
   * measured nothing. Embedded engine only; absent when there were none.
   */
  setupFailed?: Record<string, number>;
  /** Transport failures by error code (ECONNRESET, UND_ERR_HEADERS_TIMEOUT, …), when the engine can tell. */
  errors?: Record<string, number>;
  /**
   * Latency by outcome as HDR histograms of microseconds in the standard
   * compressed interchange encoding (hdr-histogram-js
   * encodeIntoCompressedBase64): in an instance result, so the instances'
   * latencies add up exactly (percentiles cannot be merged from percentiles).
   */
  histograms?: Partial<Record<Outcome, string>>;
}

// One second of a run: the shape results.json keeps (the core's results model owns it).
import type { TimeBucket } from '../../src/results/time-bucket.ts';
export type { TimeBucket };

export interface ThresholdResult {
  metric: string;
  expression: string;
  ok: boolean;
  /**
   * What the threshold was judged over: latency samples, measured answers
   * (a rate), arrivals of the phases it names (a count). 0: it could not be
   * judged, so it is an ERROR, never a PASS (ok is false). Absent where the
   * engine cannot tell (a k6 summary's counters).
   */
  samples?: number;
}

/** Headers of a refused answer, kept for the rate-limit header analysis. */
export interface HeaderSample {
  phase: string;
  status: number;
  headers: Record<string, string>;
}

export interface ArrivalTimeline {
  resolutionMs: number;
  admitted: number[];
  limited: number[];
}

/**
 * One exchange kept as the sample of its kind of error answer (status and
 * Content-Type), so the answers a load run received can be held to the
 * spec's "All request and response bodies are JSON" (src/crosscut/error-bodies.ts).
 * Not redacted: the load stage redacts it when it becomes evidence.
 */
export interface ErrorSample {
  phase: string;
  startedAt: string;
  durationMs: number;
  request: { method: string; pathAndQuery: string; headers: Record<string, string>; body?: string };
  status: number;
  headers: Record<string, string>;
  body?: string;
  /** The body's size as declared (Content-Length), else as received. */
  bodyBytes: number;
  /** Only the first part of the body was kept. */
  truncated: boolean;
}

export interface CapturedIteration {
  phase: string;
  status: number;
  variables: Record<string, string | number | boolean | null>;
}

export interface NormalizedRun {
  format: typeof RESULT_FORMAT;
  version: 1;
  engine: 'embedded' | 'k6';
  scenario: string;
  startedAt: string;
  durationMs: number;
  phases: PhaseResult[];
  thresholds: ThresholdResult[];
  timeSeries: TimeBucket[];
  headerSamples: HeaderSample[];
  /**
   * Answers that passed the limiter (not 429, 5xx or transport failures) and
   * 429s per slot of the time their request was sent, from the start of the
   * run: the limiter decides as a request arrives, while an admitted answer
   * may come a second later than a 429 (a slow operation behind the limiter),
   * so counting by completion would credit one moment with admissions made
   * earlier (rate-limit probes).
   */
  arrivalTimeline?: ArrivalTimeline;
  /** Variables of iterations whose measured answer had a chosen status (the offers of refused accepts, to read back). */
  captured?: CapturedIteration[];
  /** One exchange of each kind of error answer received (embedded engine). */
  errorSamples?: ErrorSample[];
  /** Whether the generator itself held the plan: a saturated generator under-drives the target and must say so. */
  generator: { saturated: boolean; reason?: string; maxInFlight?: number; scheduleLagP99Ms?: number };
  /** Set when this is one instance of a distributed run: its segment and what every instance must share. */
  instance?: InstanceInfo;
  /** Set when this run is the merge of instances: each one's segment and start (load/distributed/merge.ts). */
  mergedFrom?: Array<{ name: string; segment: string; engine: 'embedded' | 'k6'; startedAt: string }>;
}

export function emptyAnswers(): Record<Outcome, number> {
  return { '2xx': 0, '3xx': 0, '4xx': 0, '429': 0, '5xx': 0, transport: 0 };
}

export function answered(phase: Pick<PhaseResult, 'answers'>): number {
  let total = 0;
  for (const key of Object.keys(phase.answers) as Outcome[]) total += phase.answers[key];
  return total;
}

/**
 * Whether a step started its arrivals under 95 % of its planned rate, over
 * the span it took to start them, by more than one arrival: a step of 0.5 s
 * at 5 req/s plans 2.5 arrivals and starts 2, which is the plan, not a
 * shortfall.
 */
export function startedBelowPlan(phase: Pick<PhaseResult, 'offeredRps' | 'durationSec' | 'sent' | 'achievedRps'>): boolean {
  const { offeredRps, durationSec, sent, achievedRps } = phase;
  if (offeredRps <= 0 || durationSec < 0.5 || achievedRps >= 0.95 * offeredRps) return false;
  const spanSec = achievedRps > 0 ? sent / achievedRps : durationSec;
  return offeredRps * spanSec - sent > 1;
}

/** Thresholds that exist only so k6 reports a sub-metric (they cannot fail). */
export function isNoOpThreshold(expression: string): boolean {
  return /^(count|rate|p\(\d+(\.\d+)?\)|avg|min|max|med)\s*>=\s*0$/.test(expression.replace(/\s+/g, ''));
}
