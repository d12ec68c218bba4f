// A 429 staircase as the load stage runs it, for either operation: the run,
// its analysis as a CheckResult, and its part of results.json.
import type { CheckMeta, CheckResult } from '../../src/check/model.ts';
import type { HttpClient } from '../../src/http/client.ts';
import type { RecordedExchange } from '../../src/http/exchange.ts';
import type { Redactor } from '../../src/http/redact.ts';
import type { RateLimitProbe } from '../../src/results/load-model.ts';
import { rateLimitRecord } from './records.ts';
import { formatProgress } from '../engine/progress.ts';
import type { HeaderSample, NormalizedRun } from '../result/normalized.ts';
import type { RateLimitAnalysis, RateLimitCriteria } from '../probes/rate-limit/analysis.ts';
import { runRateLimitProbe } from '../probes/rate-limit/run.ts';
import type { PlanFor } from '../probes/rate-limit/pilot.ts';
import type { Variables } from '../../src/template.ts';
import { checkResultOfRecord, probeRecord, stepTimeline } from './results.ts';
import { judgeProbeRecord, rateLimitOutcome, staircaseMeasurements } from './probe-judgment.ts';
import { errorSampleEvidence } from './error-evidence.ts';
import type { SocketTarget } from '../../src/http/connection.ts';
import type { RateProbeSettings } from './settings.ts';
import type { BearerSource } from '../../src/http/outgoing.ts';
import type { RunEventSink } from '../../src/run-events/events.ts';

export interface RateProbeInput extends SocketTarget {
  meta: CheckMeta;
  operation: 'token' | 'accept';
  /** The staircase, sized for answers that take latencyMs (undefined: as fast as they come; the pilot runs it so). */
  scenarioFor: PlanFor;
  /** How long an answer may take by the profile (trading.processingTimeMs): the sizing when the pilot sees no answer. */
  declaredLatencyMs?: number;
  variables: Variables;
  /** The suite's own access token, renewed as the probe runs (EngineOptions.accessToken). */
  accessToken?: BearerSource;
  settings: RateProbeSettings;
  redactor: Redactor;
  /** Hears the probe's log lines, its live progress and each climb step as it ends. */
  events: RunEventSink;
  signal?: AbortSignal;
  /** Runs between the climb and the back-off, while the limiter is saturated (sample exchange, read-back). */
  afterClimb?: (climb: NormalizedRun) => Promise<void>;
  capture?: { status: number; variables: string[]; limit: number };
  evidence: () => RecordedExchange[];
}

export interface RateProbeOutput {
  check: CheckResult;
  probe: RateLimitProbe;
  run: NormalizedRun;
  analysis: RateLimitAnalysis;
  headerSamples: HeaderSample[];
}

/** What the analysis holds the staircase to, from the probe's settings. */
function criteriaOf(settings: RateProbeSettings, operation: RateProbeInput['operation']): RateLimitCriteria {
  const { capRps, expectedRps, expectedRpsKey, burst, maxServerErrorShare } = settings;
  return { capRps, expectedRps, expectedRpsKey, burst, maxServerErrorShare, operation };
}

export async function runRateProbe(input: RateProbeInput): Promise<RateProbeOutput> {
  const started = performance.now();
  const { settings } = input;
  const label = `ptas load: ${input.operation} 429`;
  const { events } = input;
  const say = (line: string) => events({ kind: 'log', line: `${label}: ${line}` });
  const criteria = criteriaOf(settings, input.operation);
  const { run, analysis, earlierClimbs, backoffSec } = await runRateLimitProbe({
    baseUrl: input.baseUrl,
    scenario: { planFor: input.scenarioFor, declaredLatencyMs: input.declaredLatencyMs },
    variables: input.variables,
    ...(input.accessToken ? { accessToken: input.accessToken } : {}),
    criteria,
    loadBudgetSec: settings.maxDurationSec,
    maxInFlight: settings.maxInFlight,
    timeoutMs: input.timeoutMs,
    tls: input.tls,
    runHeaders: input.runHeaders,
    capture: input.capture,
    signal: input.signal,
    afterClimb: input.afterClimb,
    onProgress: (snapshot) => events({ kind: 'progress', source: label, line: formatProgress(label, snapshot), elapsedSec: snapshot.elapsedSec }),
    onStep: (phase, climb) => events({ kind: 'load-step', step: { probe: input.meta.id, ratePerSecond: phase.offeredRps, sent: phase.sent, refused: phase.answers['429'] ?? 0, climb } }),
    log: (line) => {
      // Its progress is stale while it backs off: off the live line until it runs again.
      events({ kind: 'progress-end', source: label });
      say(line);
    },
  });
  events({ kind: 'progress-end', source: label });
  say(`${analysis.verdict} ${analysis.reason}`);

  const probe = rateLimitRecord({
    checkId: input.meta.id,
    operation: input.operation,
    run,
    analysis,
    capRps: settings.capRps,
    expectedRps: settings.expectedRps,
    backoffSec,
    redact: (text) => input.redactor.redactString(text),
  });
  // The check's record keeps what the staircase measured and the criteria: its verdict is their analysis (load/stage/probe-judgment.ts).
  const record = { ...probeRecord(input.meta, rateLimitOutcome(analysis), input.redactor), analysis: staircaseMeasurements(run, criteria, earlierClimbs) };
  const kept = {
    // The probe's own exchanges, then one of each kind of error answer the staircase received (for errors.error-bodies-are-json).
    evidence: [...input.evidence(), ...errorSampleEvidence(run.errorSamples, input.operation, input)],
    timeline: stepTimeline(
      analysis.steps,
      run.phases.map((p) => p.startSec),
    ),
  };
  return {
    check: checkResultOfRecord(input.meta, record, kept, performance.now() - started, judgeProbeRecord),
    probe,
    run,
    analysis,
    headerSamples: run.headerSamples,
  };
}

/** One request through the recording client while the limiter is saturated: a real 429 (or whatever comes instead) as evidence. */
export async function sampleExchange(http: HttpClient, send: (http: HttpClient) => Promise<unknown>): Promise<void> {
  try {
    await send(http);
  } catch {
    // A reset or timeout is recorded as evidence before it is thrown: that is the sample.
  }
}
