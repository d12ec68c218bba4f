// The embedded open-model load engine: k6's arrival-rate executors on
// undici. Arrivals are scheduled on the monotonic clock and never wait for
// answers (a slow target cannot slow the offered rate down, unlike a closed
// loop); the in-flight bound plays the part of k6's maxVUs, and an arrival
// that finds it full is dropped and counted, as k6 counts dropped_iterations.
// The result is the normalized result both engines share.
import { Pool } from 'undici';
import { durationSec } from '../scenarios/duration.ts';
import { expectedOutcomes, outcomeOf, type Outcome } from '../scenarios/metrics.ts';
import { type Variables } from '../../src/template.ts';
import { extractVariables, fillRequest } from '../scenarios/request.ts';
import { exchange, headersOf, type Answer } from './exchange.ts';
import type { ArrivalExecutor, LoadScenario } from '../scenarios/types.ts';
import { RESULT_FORMAT, type CapturedIteration, type CompletionTimeline, type NormalizedRun, type PhaseResult } from '../result/normalized.ts';
import { newHistogram, percentileMs, recordMs } from './histogram.ts';
import { HeaderSampler, PhaseRecorder, TimeSeries } from './recorder.ts';
import { arrivalOffsets, executorDurationSec, plannedArrivals } from './schedule.ts';
import { evaluateThresholds } from './thresholds.ts';

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

export interface EngineOptions {
  baseUrl: string;
  scenario: Pick<LoadScenario, 'name' | 'iteration' | 'scenarios' | 'thresholds'>;
  /** Values for the templates' {placeholders}: clientId, clientSecret, accessToken, userId, offerId. */
  variables: Variables;
  /** 429 is what a breakpoint looks for, not a failure. */
  rateLimitExpected?: boolean;
  /** Bound on requests in flight across all phases (default: the largest maxVUs). */
  maxInFlight?: number;
  /** Per-request limit on waiting for headers and for the body. */
  timeoutMs?: number;
  /**
   * An arrival the engine could not start within this many ms of its due
   * time (a starved event loop) is dropped and counted as late rather than
   * fired in a catch-up burst: a burst would break the even spacing a rate
   * limit is measured with (default 50 ms; Infinity always catches up).
   */
  maxLagMs?: number;
  tls?: { ca?: Buffer; cert?: Buffer; key?: Buffer; rejectUnauthorized?: boolean };
  headerSamplesPerPhase?: number;
  /** Count admitted and 429 answers per slot of this many ms of completion time (NormalizedRun.completionTimeline). */
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
}

export type PhaseDecision = 'continue' | 'stop' | { replaceRest: Record<string, ArrivalExecutor> } | void;

interface Phase {
  name: string;
  executor: ArrivalExecutor;
  startSec: number;
  durationSec: number;
  maxVUs: number;
  recorder: PhaseRecorder;
  inFlight: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));


function buildPhases(executors: Record<string, ArrivalExecutor>, offsetSec = 0): Phase[] {
  return Object.entries(executors)
    .map(([name, executor]) => {
      const startSec = offsetSec + durationSec(executor.startTime ?? '0s');
      const sec = executorDurationSec(executor);
      const unit = durationSec(executor.timeUnit ?? '1s');
      const offered = sec > 0 ? plannedArrivals(executor) / sec : 0;
      return {
        name,
        executor,
        startSec,
        durationSec: sec,
        maxVUs: executor.maxVUs ?? executor.preAllocatedVUs,
        recorder: new PhaseRecorder(name, { ...(executor.tags ?? {}) }, executor.executor === 'constant-arrival-rate' ? executor.rate / unit : offered, startSec, sec),
        inFlight: 0,
      };
    })
    .sort((a, b) => a.startSec - b.startSec);
}

export async function runEngine(options: EngineOptions): Promise<NormalizedRun> {
  const phases = buildPhases(options.scenario.scenarios);
  const maxInFlight = options.maxInFlight ?? Math.max(1, ...phases.map((p) => p.maxVUs));
  const timeoutMs = options.timeoutMs ?? 10_000;
  const origin = new URL(options.baseUrl);
  const basePath = origin.pathname.replace(/\/+$/, '');
  const pool = new Pool(origin.origin, {
    connections: maxInFlight,
    pipelining: 1,
    keepAliveTimeout: 10_000,
    connect: options.tls ? { ...options.tls } : undefined,
  });
  const expected = new Set<Outcome>(expectedOutcomes(options.rateLimitExpected ?? false));
  const series = new TimeSeries();
  const sampler = new HeaderSampler(options.headerSamplesPerPhase ?? 3);
  const lag = newHistogram();
  const startedAt = new Date();
  const t0 = performance.now();
  const now = () => performance.now() - t0;
  let inFlight = 0;
  let stopped = false;
  let failedMeasured = 0;
  let measured = 0;
  const captured: CapturedIteration[] = [];
  const timeline: CompletionTimeline | undefined = options.timelineResolutionMs
    ? { resolutionMs: options.timelineResolutionMs, admitted: [], limited: [] }
    : undefined;
  // Interrupted: no more arrivals, and requests in flight are cut rather than waited for.
  const abort = () => {
    stopped = true;
    void pool.destroy();
  };
  options.signal?.addEventListener('abort', abort, { once: true });

  const iteration = options.scenario.iteration;
  // Without values extracted on the way, every iteration sends the same requests: fill them once.
  const prefilled = iteration.some((t) => t.extract) ? undefined : iteration.map((t) => fillRequest(t, options.variables));

  function record(phase: Phase, answer: Answer, startMs: number, endMs: number, values: Variables): void {
    const outcome = outcomeOf(answer.status);
    const r = phase.recorder;
    r.answers[outcome]++;
    r.statusCounts[answer.status] = (r.statusCounts[answer.status] ?? 0) + 1;
    if (answer.errorCode) r.errors[answer.errorCode] = (r.errors[answer.errorCode] ?? 0) + 1;
    let h = r.histograms.get(outcome);
    if (!h) r.histograms.set(outcome, (h = newHistogram()));
    recordMs(h, endMs - startMs);
    series.answer(endMs - t0, outcome, endMs - startMs);
    if (timeline && (outcome === '429' || (outcome !== '5xx' && outcome !== 'transport'))) {
      const slot = Math.floor((endMs - t0) / timeline.resolutionMs);
      while (timeline.admitted.length <= slot) {
        timeline.admitted.push(0);
        timeline.limited.push(0);
      }
      (outcome === '429' ? timeline.limited : timeline.admitted)[slot]!++;
    }
    if (answer.status === 429 || answer.status >= 500) sampler.offer(r, answer.status, headersOf(answer));
    measured++;
    if (!expected.has(outcome)) failedMeasured++;
    const capture = options.capture;
    if (capture && answer.status === capture.status && captured.length < capture.limit) {
      const kept: CapturedIteration['variables'] = {};
      for (const name of capture.variables) if (values[name] !== undefined) kept[name] = values[name]!;
      captured.push({ phase: phase.name, status: answer.status, variables: kept });
    }
  }

  async function iterate(phase: Phase): Promise<void> {
    let values = options.variables;
    for (let i = 0; i < iteration.length; i++) {
      const template = iteration[i]!;
      const request = prefilled ? prefilled[i]! : fillRequest(template, values);
      const start = performance.now();
      const answer = await exchange(pool, basePath + request.pathAndQuery, request, timeoutMs, Boolean(template.extract));
      const end = performance.now();
      if (template.setup) {
        if (answer.status < 200 || answer.status >= 300) return;
      } else {
        record(phase, answer, start, end, values);
      }
      if (template.extract && answer.body !== undefined) {
        try {
          values = { ...values, ...extractVariables(template, JSON.parse(answer.body)) };
        } catch {
          return;
        }
      }
    }
  }

  // The common case — one measured request, nothing extracted — skips the async loop: the hot path stays short.
  const single = prefilled && iteration.length === 1 && !iteration[0]!.setup ? { request: prefilled[0]!, path: basePath + prefilled[0]!.pathAndQuery } : undefined;

  function iterateSingle(phase: Phase): Promise<void> {
    const start = performance.now();
    return exchange(pool, single!.path, single!.request, timeoutMs, false).then((answer) => record(phase, answer, start, performance.now(), options.variables));
  }

  /** Resolves when nothing is in flight any more (stragglers end by their own timeouts). */
  let drained: (() => void) | undefined;
  function finished(phase: Phase): void {
    inFlight--;
    phase.inFlight--;
    if (inFlight === 0 && drained) drained();
  }

  const maxLagMs = options.maxLagMs ?? 50;

  function arrive(phase: Phase, dueMs: number): void {
    const r = phase.recorder;
    const startMs = now();
    const late = startMs - dueMs > maxLagMs;
    if (late || inFlight >= maxInFlight || phase.inFlight >= phase.maxVUs) {
      r.dropped++;
      if (late) r.late++;
      series.arrival(dueMs, false);
      return;
    }
    recordMs(lag, Math.max(0.001, startMs - dueMs));
    r.sent++;
    r.firstStartMs ??= startMs;
    r.lastStartMs = startMs;
    series.arrival(dueMs, true);
    inFlight++;
    phase.inFlight++;
    (single ? iterateSingle(phase) : iterate(phase)).then(
      () => finished(phase),
      () => finished(phase),
    );
  }

  async function drive(phase: Phase): Promise<void> {
    const phaseStartMs = phase.startSec * 1000;
    for (const offset of arrivalOffsets(phase.executor)) {
      const due = phaseStartMs + offset * 1000;
      // Wake in slices so a stop is noticed; never fire early.
      while (!stopped && due - now() > 0.2) await sleep(Math.min(due - now(), 50));
      if (stopped) return;
      arrive(phase, due);
    }
    const endMs = phaseStartMs + phase.durationSec * 1000;
    while (!stopped && endMs - now() > 0.2) await sleep(Math.min(endMs - now(), 50));
  }

  let lastProgress = { ms: 0, answers: 0 };
  let currentPhase = phases[0]?.name ?? '';
  const progressTimer = options.onProgress
    ? setInterval(() => {
        const ms = now();
        const second = Math.floor(ms / 1000) - 1;
        const totals = phases.reduce((sum, p) => sum + p.recorder.sent - p.inFlight, 0);
        const window = series.peek(second);
        const b = window?.bucket;
        const answeredInBucket = b ? b.status2xx + b.status429 + b.status5xx + b.other : 0;
        const current = phases.find((p) => p.name === currentPhase);
        options.onProgress!({
          elapsedSec: ms / 1000,
          phase: currentPhase,
          offeredRps: current?.recorder.offeredRps ?? 0,
          achievedRps: ((totals - lastProgress.answers) * 1000) / Math.max(1, ms - lastProgress.ms),
          share2xx: answeredInBucket ? b!.status2xx / answeredInBucket : 0,
          share429: answeredInBucket ? b!.status429 / answeredInBucket : 0,
          share5xx: answeredInBucket ? b!.status5xx / answeredInBucket : 0,
          p95Ms: window?.p95Ms,
          inFlight,
          dropped: phases.reduce((sum, p) => sum + p.recorder.dropped, 0),
        });
        lastProgress = { ms, answers: totals };
      }, options.progressIntervalMs ?? 1000)
    : undefined;
  const closeTimer = setInterval(() => series.closeBefore(Math.floor(now() / 1000) - 2), 1000);

  try {
    const concurrent: Array<Promise<void>> = [];
    for (let i = 0; i < phases.length && !stopped; i++) {
      const phase = phases[i]!;
      while (!stopped && phase.startSec * 1000 - now() > 0.2) await sleep(Math.min(phase.startSec * 1000 - now(), 50));
      if (stopped) break;
      currentPhase = phase.name;
      const driving = drive(phase);
      const next = phases[i + 1];
      const sequential = !next || next.startSec >= phase.startSec + phase.durationSec - 1e-6;
      if (sequential) {
        await driving;
        const decision = options.onPhaseEnd?.(phase.recorder.result());
        if (decision === 'stop') stopped = true;
        else if (decision && typeof decision === 'object') {
          phases.splice(i + 1, phases.length, ...buildPhases(decision.replaceRest, phase.startSec + phase.durationSec));
        }
      } else {
        concurrent.push(driving);
      }
    }
    await Promise.all(concurrent);
    if (inFlight > 0) await new Promise<void>((resolve) => (drained = resolve));
  } finally {
    if (progressTimer) clearInterval(progressTimer);
    clearInterval(closeTimer);
    options.signal?.removeEventListener('abort', abort);
    if (!pool.destroyed) await pool.close().catch(() => pool.destroy());
  }

  const ran = phases.filter((p) => p.recorder.sent + p.recorder.dropped > 0);
  const results = ran.map((p) => p.recorder.result());
  const lagP99 = lag.totalCount ? percentileMs(lag, 99) : 0;
  lag.destroy();
  const generator = saturation(results, lagP99, maxInFlight);
  const run: NormalizedRun = {
    format: RESULT_FORMAT,
    version: 1,
    engine: 'embedded',
    scenario: options.scenario.name,
    startedAt: startedAt.toISOString(),
    durationMs: Math.round(now()),
    phases: results,
    thresholds: [],
    timeSeries: series.finish(),
    headerSamples: sampler.samples,
    ...(options.capture ? { captured } : {}),
    ...(timeline ? { completionTimeline: timeline } : {}),
    generator,
  };
  run.thresholds = evaluateThresholds(options.scenario.thresholds, ran.map((p) => p.recorder), { measured, failed: failedMeasured });
  for (const p of ran) for (const h of p.recorder.histograms.values()) h.destroy();
  return run;
}

/**
 * Did the generator hold the plan? Dropped arrivals mean the in-flight bound
 * was full (usually a slow target); a low achieved start rate or late starts
 * mean the engine itself could not keep up. Either way the offered rate was
 * not what the plan says, and the result must say so.
 */
function saturation(phases: PhaseResult[], lagP99Ms: number, maxInFlight: number): NormalizedRun['generator'] {
  const reasons: string[] = [];
  for (const p of phases) {
    const late = p.late ?? 0;
    if (late > 0) reasons.push(`${p.name}: ${late} of ${p.sent + p.dropped} arrivals could not be started on time (the engine was starved of CPU)`);
    if (p.dropped > late) reasons.push(`${p.name}: ${p.dropped - late} of ${p.sent + p.dropped} arrivals dropped (in-flight bound reached: the target answered too slowly)`);
    if (p.dropped > 0) continue;
    if (p.offeredRps > 0 && p.durationSec >= 0.5 && p.achievedRps < 0.95 * p.offeredRps) {
      reasons.push(`${p.name}: started ${p.achievedRps.toFixed(0)} of ${p.offeredRps.toFixed(0)} req/s`);
    }
  }
  return {
    saturated: reasons.length > 0,
    reason: reasons.length ? reasons.join('; ') : undefined,
    maxInFlight,
    scheduleLagP99Ms: lagP99Ms,
  };
}
