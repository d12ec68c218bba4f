// The end of an embedded run: the normalized result both engines share,
// with the thresholds judged and the generator's own health (did it hold
// the plan?) stated.
import { RESULT_FORMAT, startedBelowPlan, type NormalizedRun, type PhaseResult } from '../result/normalized.ts';
import { encodeHistogram, percentileMs } from './histogram.ts';
import type { Outcome } from '../scenarios/metrics.ts';
import type { PhaseRecorder } from './recorder.ts';
import type { EngineOptions } from './options.ts';
import type { RunRecording } from './run-recording.ts';
import type { Scheduler } from './scheduler.ts';
import { evaluateThresholds } from './thresholds.ts';

export interface RunSummaryInput {
  options: EngineOptions;
  scheduler: Scheduler;
  recording: RunRecording;
  startedAt: Date;
  /** ms on the run clock. */
  now: () => number;
  maxInFlight: number;
}

/** The normalized result; frees the run's histograms, so call it once, after the run. */
export function summarizeRun({ options, scheduler, recording, startedAt, now, maxInFlight }: RunSummaryInput): NormalizedRun {
  const ran = scheduler.phases.filter((p) => p.recorder.sent + p.recorder.dropped > 0);
  const results = ran.map((p) => (options.keepHistograms ? { ...p.recorder.result(), histograms: encoded(p.recorder) } : p.recorder.result()));
  const lag = scheduler.lag;
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
    timeSeries: recording.series.finish(),
    headerSamples: recording.sampler.samples,
    ...(options.capture ? { captured: recording.captured } : {}),
    ...(recording.timeline ? { arrivalTimeline: recording.timeline } : {}),
    ...(recording.errorSamples.samples.length ? { errorSamples: recording.errorSamples.samples } : {}),
    generator,
  };
  run.thresholds = evaluateThresholds(options.scenario.thresholds, ran.map((p) => p.recorder), { measured: recording.measured, failed: recording.failedMeasured });
  for (const p of ran) for (const h of p.recorder.histograms.values()) h.destroy();
  return run;
}

/** The phase's latency histograms by outcome, in the compressed interchange encoding an instance result carries. */
function encoded(recorder: PhaseRecorder): Partial<Record<Outcome, string>> {
  const out: Partial<Record<Outcome, string>> = {};
  for (const [outcome, histogram] of recorder.histograms) out[outcome] = encodeHistogram(histogram);
  return out;
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
    if (startedBelowPlan(p)) {
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
