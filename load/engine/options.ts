// What a caller of the embedded engine can ask of it (EngineOptions) and what
// it hears back while the run is under way (ProgressSnapshot, PhaseDecision).
import type { SocketTarget } from '../../src/http/connection.ts';
import type { Variables } from '../../src/template.ts';
import type { ArrivalExecutor, LoadScenario } from '../scenarios/types.ts';
import type { PhaseResult } from '../result/normalized.ts';
import type { Outcome } from '../scenarios/metrics.ts';
import type { BearerSource } from '../../src/http/outgoing.ts';

/** One measured answer as it completed (onAnswer): for a caller that needs the raw samples, never kept by the engine. */
export interface AnswerSample {
  phase: string;
  status: number;
  outcome: Outcome;
  /** Transport failure code (ECONNRESET, …) when status is 0. */
  errorCode?: string;
  /** Due time and completion, in ms on the run clock (0: the run's startedAt). */
  startMs: number;
  endMs: number;
  /** The latency as the histograms record it: whole microseconds, at least 1. */
  latencyUs: number;
}

export interface ProgressSnapshot {
  elapsedSec: number;
  phase: string;
  offeredRps: number;
  /** Answers completed per second over the last interval. */
  achievedRps: number;
  share2xx: number;
  share429: number;
  share5xx: number;
  p95Ms?: number;
  inFlight: number;
  dropped: number;
}

/** Where it sends: a connection's socket target (src/http/connection.ts); the time limit defaults to the client's. */
export interface EngineOptions extends Pick<SocketTarget, 'baseUrl'>, Partial<Omit<SocketTarget, 'baseUrl'>> {
  scenario: Pick<LoadScenario, 'name' | 'iteration' | 'scenarios' | 'thresholds'>;
  /** Values for the templates' {placeholders}: clientId, clientSecret, accessToken, userId, offerId. */
  variables: Variables;
  /**
   * The suite's own access token (src/auth/tokens.ts), when the requests
   * carry {accessToken}: the engine reads it again as the run goes and
   * prepares its requests with the renewed one, so a run outlives a token
   * lifetime shorter than itself. Without it, variables.accessToken as given.
   */
  accessToken?: BearerSource;
  /** 429 is what a breakpoint looks for, not a failure. */
  rateLimitExpected?: boolean;
  /** Bound on requests in flight across all phases (default: the largest maxVUs). */
  maxInFlight?: number;
  /**
   * Connections at most (default: the in-flight bound — one per request in
   * flight, as k6's VUs each have their own). Fewer: a request finding them
   * all busy waits for one, and its latency still counts from its due time.
   */
  maxConnections?: number;
  /**
   * An arrival the engine could not start within this many ms of its due
   * time (a starved event loop) is dropped and counted as late rather than
   * fired in a catch-up burst: a burst would break the even spacing a rate
   * limit is measured with (default 50 ms; Infinity always catches up).
   */
  maxLagMs?: number;
  headerSamplesPerPhase?: number;
  /** Count admitted and 429 answers per slot of this many ms of the time their request was sent (NormalizedRun.arrivalTimeline). */
  timelineResolutionMs?: number;
  /** Keep the named variables of the first `limit` iterations whose measured answer had this status. */
  capture?: { status: number; variables: string[]; limit: number };
  /**
   * Called when a phase's arrivals are over, before the next phase starts:
   * 'stop' ends the run there; phases returned replace the rest of the plan,
   * starting at once (their startTime counts from this moment).
   */
  onPhaseEnd?: (phase: PhaseResult) => PhaseDecision;
  onProgress?: (snapshot: ProgressSnapshot) => void;
  progressIntervalMs?: number;
  signal?: AbortSignal;
  /**
   * k6's --execution-segment (and --execution-segment-sequence): run only
   * this instance's share of every phase's arrivals (load/distributed/arrivals.ts),
   * with its share of every in-flight bound.
   */
  segment?: { segment: string; sequence?: string };
  /** Keep each phase's latency histograms in the result, encoded (PhaseResult.histograms): an instance result. */
  keepHistograms?: boolean;
  /** Called with every measured answer (raw samples, e.g. to check a merge against them). */
  onAnswer?: (sample: AnswerSample) => void;
  /**
   * 'auto' (default): raw HTTP/1.1 on keep-alive sockets for an http:// target
   * without TLS material, undici otherwise (open-transport.ts); 'undici' always
   * takes undici (comparisons, tests of the fallback).
   */
  transport?: 'auto' | 'undici';
}

export type PhaseDecision = 'continue' | 'stop' | { replaceRest: Record<string, ArrivalExecutor> } | void;
