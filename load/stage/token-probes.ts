// The token endpoint's probes in the load stage: the 413 boundary first
// (sequential, a few dozen requests), then the 429 staircase.
import type { CheckResult } from '../../src/check/model.ts';
import { clientCredentialsBody } from '../../src/auth/tokens.ts';
import type { ResolvedProfile } from '../../src/config/profile.ts';
import { HttpClient, type TransportSettings } from '../../src/http/client.ts';
import type { RecordedExchange } from '../../src/http/exchange.ts';
import type { Redactor } from '../../src/http/redact.ts';
import { socketTarget, type Connection } from '../../src/http/connection.ts';
import type { BodySizeProbe } from '../../src/results/load-model.ts';
import { TOKEN_BODY_SIZE_LIMIT, TOKEN_RATE_LIMIT } from '../checks.ts';
import { sizedEvidence } from '../probes/body-size/evidence.ts';
import { runBodySizeProbe } from '../probes/body-size/run.ts';
import { DEFAULT_MAX_PROBE_BYTES } from '../scenarios/body-size.ts';
import { tokenRateBreakpoint } from '../scenarios/breakpoints.ts';
import { TOKEN_PATH, tokenRequest } from '../scenarios/operations.ts';
import { bodySizeRecord } from './records.ts';
import { oneOfEachErrorKind } from './error-evidence.ts';
import { runRateProbe, sampleExchange, type RateProbeInput, type RateProbeOutput } from './rate-probe.ts';
import { checkResult, checkResultOfRecord, probeRecord } from './results.ts';
import { bodySizeOutcome, judgeProbeRecord, sizeMeasurements } from './probe-judgment.ts';
import { rateProbeGate, rateProbeSettings } from './settings.ts';
import type { RunEventSink } from '../../src/run-events/events.ts';

export interface StageContext {
  profile: ResolvedProfile;
  /** How every probe reaches the target (src/http/connection.ts). */
  connection: Connection;
  transport: TransportSettings;
  redactor: Redactor;
  /** Hears the probes' lines, their live progress and each staircase step. */
  events: RunEventSink;
  signal?: AbortSignal;
}

/** Where and how a rate probe reaches the target: the same for every probe of the stage. */
export function probeTarget(ctx: StageContext): Pick<RateProbeInput, 'baseUrl' | 'timeoutMs' | 'tls' | 'runHeaders' | 'redactor' | 'events' | 'signal'> {
  return {
    ...socketTarget(ctx.connection),
    redactor: ctx.redactor,
    events: ctx.events,
    signal: ctx.signal,
  };
}

export async function tokenBodySizeCheck(ctx: StageContext): Promise<{ check: CheckResult; probe?: BodySizeProbe }> {
  const started = performance.now();
  const section = ctx.profile.load ?? {};
  if (section.probes?.tokenBodyLimit === false) {
    return { check: checkResult(TOKEN_BODY_SIZE_LIMIT, { verdict: 'SKIP', reason: 'disabled by load.probes.tokenBodyLimit' }, 0, ctx.redactor) };
  }
  const maxBytes = section.tokenBodyLimit?.maxProbeBytes ?? DEFAULT_MAX_PROBE_BYTES;
  const label = 'ptas load: token 413';
  const run = await runBodySizeProbe({
    ...socketTarget(ctx.connection),
    request: tokenRequest(),
    variables: ctx.connection.credentials,
    maxBytes,
    expectedLimitBytes: section.tokenBodyLimit?.expectedBytes,
    signal: ctx.signal,
  });
  const j = run.judgement;
  ctx.events({ kind: 'log', line: `${label}: ${j.verdict} ${j.reason} (${run.requests} requests, budget ${run.requestBudget})` });
  const boundary = run.exchanges.filter(
    (e) => e.step.purpose === 'upper bound' || (j.largestAcceptedBytes !== undefined && e.step.sizeBytes >= j.largestAcceptedBytes && e.step.sizeBytes <= j.largestAcceptedBytes + 1),
  );
  // And one of each kind of error answer the boundary does not show, for errors.error-bodies-are-json.
  const shown = [...boundary, ...oneOfEachErrorKind(run.exchanges, (e) => e.response, boundary)];
  // The check's record keeps the sizes tried, the range and what the probe cost: its verdict is their judgement (load/stage/probe-judgment.ts).
  const cost = { requests: run.requests, requestBudget: run.requestBudget, rateLimitedRetries: run.rateLimitedRetries };
  const record = { ...probeRecord(TOKEN_BODY_SIZE_LIMIT, bodySizeOutcome(j, cost), ctx.redactor), analysis: sizeMeasurements(run.steps, run.context, cost) };
  const kept = {
    evidence: sizedEvidence(shown, ctx.redactor),
    timeline: run.steps.map((s, i) => ({ atMs: i, event: `${s.framing} ${s.sizeBytes} bytes (${s.purpose})`, detail: `${s.status ?? s.outcome}${s.errorCode ? ` ${s.errorCode}` : ''} in ${s.durationMs} ms` })),
  };
  const check = checkResultOfRecord(TOKEN_BODY_SIZE_LIMIT, record, kept, performance.now() - started, judgeProbeRecord);
  const probe = bodySizeRecord({ checkId: TOKEN_BODY_SIZE_LIMIT.id, steps: run.steps, judgement: j, requests: run.requests, requestBudget: run.requestBudget, redact: (t) => ctx.redactor.redactString(t) });
  return { check, probe };
}

export async function tokenRateCheck(ctx: StageContext): Promise<{ check: CheckResult; output?: RateProbeOutput }> {
  const gate = rateProbeGate(ctx.profile, 'tokenRateLimit');
  if (!gate.run) return { check: checkResult(TOKEN_RATE_LIMIT, { verdict: 'SKIP', reason: gate.reason, configKey: gate.configKey }, 0, ctx.redactor) };
  const settings = rateProbeSettings(ctx.profile, 'tokenRateLimit');
  const http = HttpClient.to(ctx.connection, { transport: ctx.transport, redactor: ctx.redactor });
  const evidence: RecordedExchange[] = [];
  const recording = http.withRecorder({ record: (e) => evidence.push(e) });
  const output = await runRateProbe({
    meta: TOKEN_RATE_LIMIT,
    operation: 'token',
    ...probeTarget(ctx),
    scenarioFor: (latencyMs) => tokenRateBreakpoint({ ...settings, stepSec: settings.stepSec, latencyMs }, settings.maxInFlight),
    variables: ctx.connection.credentials,
    settings,
    afterClimb: () =>
      sampleExchange(recording, (client) =>
        client.post(TOKEN_PATH, { json: clientCredentialsBody(ctx.profile), label: 'one more token request right after the staircase, while the limiter is saturated', once: true }),
      ),
    evidence: () => evidence,
  });
  return { check: output.check, output };
}
