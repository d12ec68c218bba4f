// What the engine records of each measured answer, across the phases: the
// phase's counts and latency histogram, the per-second time series, the
// arrival timeline, header samples of refused answers, one sample exchange
// of each kind of error answer, the tally the thresholds judge (measured,
// failed) and the captured iterations.
import { expectedOutcomes, outcomeOf, type Outcome } from '../scenarios/metrics.ts';
import type { Variables } from '../../src/template.ts';
import type { RequestTemplate } from '../scenarios/types.ts';
import { ErrorSampler } from './error-samples.ts';
import type { CapturedIteration, ArrivalTimeline } from '../result/normalized.ts';
import { headersOf, type Answer } from './answer.ts';
import { newHistogram, recordMs } from './histogram.ts';
import type { EngineOptions } from './options.ts';
import type { Phase } from './phases.ts';
import { HeaderSampler, TimeSeries } from './recorder.ts';

type RecordingOptions = Pick<EngineOptions, 'rateLimitExpected' | 'headerSamplesPerPhase' | 'timelineResolutionMs' | 'capture' | 'onAnswer'>;

export class RunRecording {
  readonly series = new TimeSeries();
  readonly sampler: HeaderSampler;
  readonly errorSamples = new ErrorSampler();
  readonly captured: CapturedIteration[] = [];
  readonly timeline: ArrivalTimeline | undefined;
  /** Measured answers, and those of them with an outcome not expected (the thresholds' failure rate). */
  measured = 0;
  failedMeasured = 0;
  private readonly expected: Set<Outcome>;
  private readonly capture: RecordingOptions['capture'];
  private readonly onAnswer: RecordingOptions['onAnswer'];

  /** t0: the run clock's origin on performance.now(), which answers' end times are measured on. */
  constructor(
    private readonly t0: number,
    options: RecordingOptions,
  ) {
    this.expected = new Set<Outcome>(expectedOutcomes(options.rateLimitExpected ?? false));
    this.sampler = new HeaderSampler(options.headerSamplesPerPhase ?? 3);
    this.timeline = options.timelineResolutionMs ? { resolutionMs: options.timelineResolutionMs, admitted: [], limited: [] } : undefined;
    this.capture = options.capture;
    this.onAnswer = options.onAnswer;
  }

  /** An iteration that ended in its set-up (RecordSetupFailure): it measured nothing, and its phase counts it by cause. */
  setupFailure(phase: Phase, cause: number | 'unreadable'): void {
    const failed = phase.recorder.setupFailed;
    failed[cause] = (failed[cause] ?? 0) + 1;
  }

  /** One measured answer; startMs, endMs and sentMs (RecordAnswer) on performance.now(), values the iteration's variables so far, template its request. */
  record(phase: Phase, answer: Answer, startMs: number, endMs: number, values: Variables, template: RequestTemplate, sentMs: number): void {
    const outcome = outcomeOf(answer.status);
    const r = phase.recorder;
    r.answers[outcome]++;
    r.statusCounts[answer.status] = (r.statusCounts[answer.status] ?? 0) + 1;
    if (answer.errorCode) r.errors[answer.errorCode] = (r.errors[answer.errorCode] ?? 0) + 1;
    let h = r.histograms.get(outcome);
    if (!h) r.histograms.set(outcome, (h = newHistogram()));
    recordMs(h, endMs - startMs);
    if (this.onAnswer) {
      const latencyUs = Math.max(1, Math.round((endMs - startMs) * 1000));
      this.onAnswer({ phase: phase.name, status: answer.status, outcome, errorCode: answer.errorCode, startMs: startMs - this.t0, endMs: endMs - this.t0, latencyUs });
    }
    this.series.answer(endMs - this.t0, outcome, endMs - startMs);
    if (this.timeline && (outcome === '429' || (outcome !== '5xx' && outcome !== 'transport'))) this.countInTimeline(this.timeline, outcome, sentMs);
    if (this.sampler.wants(r, answer.status)) this.sampler.offer(r, answer.status, headersOf(answer));
    if (answer.sampled) this.errorSamples.offer(phase.name, answer, { template, values }, startMs, endMs);
    this.measured++;
    if (!this.expected.has(outcome)) this.failedMeasured++;
    if (this.capture && answer.status === this.capture.status && this.captured.length < this.capture.limit) {
      this.keep(phase, answer.status, values, this.capture.variables);
    }
  }

  private countInTimeline(timeline: ArrivalTimeline, outcome: Outcome, sentMs: number): void {
    const slot = Math.max(0, Math.floor((sentMs - this.t0) / timeline.resolutionMs));
    while (timeline.admitted.length <= slot) {
      timeline.admitted.push(0);
      timeline.limited.push(0);
    }
    (outcome === '429' ? timeline.limited : timeline.admitted)[slot]!++;
  }

  private keep(phase: Phase, status: number, values: Variables, names: string[]): void {
    const kept: CapturedIteration['variables'] = {};
    for (const name of names) if (values[name] !== undefined) kept[name] = values[name]!;
    this.captured.push({ phase: phase.name, status, variables: kept });
  }
}
