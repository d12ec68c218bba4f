// The embedded open-model load engine: k6's arrival-rate executors on
// undici. Arrivals are scheduled on the monotonic clock and never wait for
// answers (a slow target cannot slow the offered rate down, unlike a closed
// loop); the in-flight bound plays the part of k6's maxVUs, and an arrival
// that finds it full is dropped and counted, as k6 counts dropped_iterations.
// The result is the normalized result both engines share.
//
// The parts: phases.ts (the plan), scheduler.ts (arrivals and in-flight
// bounds), iteration.ts (the requests of one arrival), run-recording.ts
// (what each answer adds to the result), ticker.ts (progress snapshots),
// summary.ts (the normalized result).
import { Pool } from 'undici';
import { HTTP_DEFAULTS } from '../../src/config/profile.ts';
import type { NormalizedRun } from '../result/normalized.ts';
import { iterationRunner } from './iteration.ts';
import type { EngineOptions } from './options.ts';
import { buildPhases } from './phases.ts';
import { RunRecording } from './run-recording.ts';
import { Scheduler } from './scheduler.ts';
import { summarizeRun } from './summary.ts';
import { startProgressTicker } from './ticker.ts';

export type { EngineOptions, PhaseDecision, ProgressSnapshot } from './options.ts';

export async function runEngine(options: EngineOptions): Promise<NormalizedRun> {
  const phases = buildPhases(options.scenario.scenarios);
  const maxInFlight = options.maxInFlight ?? Math.max(1, ...phases.map((p) => p.maxVUs));
  const origin = new URL(options.baseUrl);
  const pool = new Pool(origin.origin, {
    connections: maxInFlight,
    pipelining: 1,
    keepAliveTimeout: 10_000,
    connect: options.tls ? { ...options.tls } : undefined,
  });
  const startedAt = new Date();
  const t0 = performance.now();
  const now = () => performance.now() - t0;
  const recording = new RunRecording(t0, options);
  const iterate = iterationRunner({
    pool,
    basePath: origin.pathname.replace(/\/+$/, ''),
    iteration: options.scenario.iteration,
    variables: options.variables,
    timeoutMs: options.timeoutMs ?? HTTP_DEFAULTS.timeoutMs,
    record: (phase, answer, startMs, endMs, values) => recording.record(phase, answer, startMs, endMs, values),
  });
  const scheduler = new Scheduler(phases, now, { maxInFlight, maxLagMs: options.maxLagMs ?? 50 }, recording.series, iterate);
  // Interrupted: no more arrivals, and requests in flight are cut rather than waited for.
  const abort = () => {
    scheduler.stopped = true;
    void pool.destroy();
  };
  options.signal?.addEventListener('abort', abort, { once: true });
  const progressTimer = options.onProgress
    ? startProgressTicker(scheduler, recording.series, now, options.onProgress, options.progressIntervalMs ?? 1000)
    : undefined;
  const closeTimer = setInterval(() => recording.series.closeBefore(Math.floor(now() / 1000) - 2), 1000);

  try {
    await scheduler.run(options.onPhaseEnd);
  } finally {
    if (progressTimer) clearInterval(progressTimer);
    clearInterval(closeTimer);
    options.signal?.removeEventListener('abort', abort);
    if (!pool.destroyed) await pool.close().catch(() => pool.destroy());
  }
  return summarizeRun({ options, scheduler, recording, startedAt, now, maxInFlight });
}
