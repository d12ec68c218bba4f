// The embedded open-model load engine: k6's arrival-rate executors in Node.
// Arrivals are scheduled on the monotonic clock and never wait for
// answers (a slow target cannot slow the offered rate down, unlike a closed
// loop); the in-flight bound plays the part of k6's maxVUs, and an arrival
// that finds it full is dropped and counted, as k6 counts dropped_iterations.
// The result is the normalized result both engines share.
//
// The parts: phases.ts (the plan), scheduler.ts (arrivals and in-flight
// bounds), iteration.ts (the requests of one arrival), open-transport.ts (raw
// HTTP/1.1 on keep-alive sockets, or undici where that cannot serve),
// run-recording.ts (what each answer adds to the result), ticker.ts
// (progress snapshots), summary.ts (the normalized result).
import { HTTP_DEFAULTS } from '../../src/config/profile.ts';
import type { Variables } from '../../src/template.ts';
import type { NormalizedRun } from '../result/normalized.ts';
import { iterationRunner } from './iteration.ts';
import type { EngineOptions } from './options.ts';
import { buildPhases } from './phases.ts';
import { HeaderSampler } from './recorder.ts';
import { RunRecording } from './run-recording.ts';
import { Scheduler } from './scheduler.ts';
import { summarizeRun } from './summary.ts';
import { startProgressTicker } from './ticker.ts';
import { openTransport } from './open-transport.ts';
import { arrivalSegment } from '../distributed/arrivals.ts';

export type { AnswerSample, EngineOptions, PhaseDecision, ProgressSnapshot } from './options.ts';

/** How often the run asks its token source whether the token was renewed (the source renews at half the token's lifetime). */
const TOKEN_CHECK_MS = 250;

/**
 * The run's variables, with the access token the source holds now: looked at
 * every TOKEN_CHECK_MS, and a new variables object (the requests are then
 * prepared again) only when the token changed. A token the target answered
 * 401 is renewed at the next look even before its half-life: at most one
 * renewal per look, however many requests it refused (a storm of token
 * requests would reach the token endpoint a staircase may be measuring).
 */
async function renewedVariables(options: EngineOptions): Promise<{ current: () => Variables; refused(values: Variables): void; stop(): void }> {
  const source = options.accessToken;
  let variables = source ? { ...options.variables, accessToken: await source.current() } : options.variables;
  if (!source) return { current: () => variables, refused: () => undefined, stop: () => undefined };
  let refused: string | undefined;
  const timer = setInterval(() => {
    const rejected = refused;
    refused = undefined;
    (rejected ? source.renewed(rejected) : source.current()).then(
      (token) => {
        if (token !== variables.accessToken) variables = { ...variables, accessToken: token };
      },
      // A renewal that failed leaves the token as it was: the answers say what that costs.
      () => undefined,
    );
  }, TOKEN_CHECK_MS);
  timer.unref();
  return {
    current: () => variables,
    refused: (values) => {
      if (typeof values.accessToken === 'string' && values.accessToken === variables.accessToken) refused = values.accessToken;
    },
    stop: () => clearInterval(timer),
  };
}

export async function runEngine(options: EngineOptions): Promise<NormalizedRun> {
  // Before the run's clock starts: the first token may take a request to get.
  const variables = await renewedVariables(options);
  const segment = options.segment ? arrivalSegment(options.segment.segment, options.segment.sequence) : undefined;
  const phases = buildPhases(options.scenario.scenarios, 0, segment);
  const maxInFlight = options.maxInFlight ?? Math.max(1, ...phases.map((p) => p.maxVUs));
  const transport = openTransport(
    {
      baseUrl: options.baseUrl,
      tls: options.tls,
      runHeaders: options.runHeaders,
      timeoutMs: options.timeoutMs ?? HTTP_DEFAULTS.timeoutMs,
      maxConnections: options.maxConnections ?? maxInFlight,
      keepHeadersOf: HeaderSampler.samples,
      keepBodyOf: (status, contentType) => recording.errorSamples.wants(status, contentType),
      prefer: options.transport,
    },
    options.scenario.iteration,
  );
  const startedAt = new Date();
  const t0 = performance.now();
  const now = () => performance.now() - t0;
  const recording = new RunRecording(t0, options);
  const iterate = iterationRunner({
    transport,
    t0,
    iteration: options.scenario.iteration,
    variables: variables.current,
    record: (phase, answer, startMs, endMs, values, template, sentMs) => {
      if (answer.status === 401) variables.refused(values);
      recording.record(phase, answer, startMs, endMs, values, template, sentMs);
    },
    setupFailed: (phase, cause, values) => {
      if (cause === 401) variables.refused(values);
      recording.setupFailure(phase, cause);
    },
  });
  const scheduler = new Scheduler(phases, now, { maxInFlight, maxLagMs: options.maxLagMs ?? 50 }, recording.series, iterate, segment);
  // Interrupted: no more arrivals, and requests in flight are cut rather than waited for.
  const abort = () => {
    scheduler.stopped = true;
    transport.destroy();
  };
  options.signal?.addEventListener('abort', abort, { once: true });
  const progressTimer = options.onProgress
    ? startProgressTicker(scheduler, recording.series, now, options.onProgress, options.progressIntervalMs ?? 1000)
    : undefined;
  const closeTimer = setInterval(() => recording.series.closeBefore(Math.floor(now() / 1000) - 2), 1000);

  try {
    await scheduler.run(options.onPhaseEnd);
  } finally {
    variables.stop();
    if (progressTimer) clearInterval(progressTimer);
    clearInterval(closeTimer);
    options.signal?.removeEventListener('abort', abort);
    await transport.close();
  }
  return summarizeRun({ options, scheduler, recording, startedAt, now, maxInFlight });
}
