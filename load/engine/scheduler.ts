// The engine's open-model scheduling: arrivals fire at their due times on the
// run clock and never wait for answers; the in-flight bounds (the run's and
// each phase's maxVUs) and the lag bound decide whether an arrival starts or
// is dropped and counted. Phases run in order of start, overlapping ones at
// once; a phase that ends alone may stop the run or replace the rest of it.
import type { TimeSeries } from './recorder.ts';
import { newHistogram, recordMs } from './histogram.ts';
import type { RunIteration } from './iteration.ts';
import type { EngineOptions } from './options.ts';
import type { ArrivalSegment } from '../distributed/arrivals.ts';
import { buildPhases, type Phase } from './phases.ts';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

export interface SchedulerLimits {
  maxInFlight: number;
  /** An arrival that cannot start within this many ms of its due time is dropped as late. */
  maxLagMs: number;
}

export class Scheduler {
  /** Set on an interrupt or a phase's 'stop': no more arrivals. */
  stopped = false;
  inFlight = 0;
  /** The phase whose arrivals were last started (for progress lines). */
  currentPhase: string;
  /** How late arrivals started against their due times. */
  readonly lag = newHistogram();
  /** Resolves when nothing is in flight any more (stragglers end by their own timeouts). */
  private drained: (() => void) | undefined;

  /** phases: the plan, replaced in place when a phase decides so; now: ms on the run clock. */
  constructor(
    readonly phases: Phase[],
    private readonly now: () => number,
    private readonly limits: SchedulerLimits,
    private readonly series: TimeSeries,
    private readonly iterate: RunIteration,
    /** The instance's execution segment: a replaced plan keeps to it too. */
    private readonly segment?: ArrivalSegment,
  ) {
    this.currentPhase = phases[0]?.name ?? '';
  }

  /** Drives every phase, then waits for what is still in flight. */
  async run(onPhaseEnd: EngineOptions['onPhaseEnd']): Promise<void> {
    const phases = this.phases;
    const concurrent: Array<Promise<void>> = [];
    for (let i = 0; i < phases.length && !this.stopped; i++) {
      const phase = phases[i]!;
      const startMs = phase.startSec * 1000;
      while (this.waiting(startMs)) await sleep(Math.min(startMs - this.now(), 50));
      if (this.stopped) break;
      this.currentPhase = phase.name;
      const driving = this.drive(phase);
      const next = phases[i + 1];
      const sequential = !next || next.startSec >= phase.startSec + phase.durationSec - 1e-6;
      if (sequential) {
        await driving;
        const decision = onPhaseEnd?.(phase.recorder.result());
        if (decision === 'stop') this.stopped = true;
        else if (decision && typeof decision === 'object') {
          phases.splice(i + 1, phases.length, ...buildPhases(decision.replaceRest, phase.startSec + phase.durationSec, this.segment));
        }
      } else {
        concurrent.push(driving);
      }
    }
    await Promise.all(concurrent);
    if (this.inFlight > 0) await new Promise<void>((resolve) => (this.drained = resolve));
  }

  /**
   * Still to wait for dueMs? Callers sleep in slices of at most 50 ms so a
   * stop is noticed, and never fire early. The test is synchronous so an
   * arrival already due fires without yielding to the event loop first.
   */
  private waiting(dueMs: number): boolean {
    return !this.stopped && dueMs - this.now() > 0.2;
  }

  private async drive(phase: Phase): Promise<void> {
    const phaseStartMs = phase.startSec * 1000;
    for (const offset of phase.arrivals()) {
      const due = phaseStartMs + offset * 1000;
      while (this.waiting(due)) await sleep(Math.min(due - this.now(), 50));
      if (this.stopped) return;
      this.arrive(phase, due);
    }
    const endMs = phaseStartMs + phase.durationSec * 1000;
    while (this.waiting(endMs)) await sleep(Math.min(endMs - this.now(), 50));
  }

  private arrive(phase: Phase, dueMs: number): void {
    const r = phase.recorder;
    const startMs = this.now();
    const late = startMs - dueMs > this.limits.maxLagMs;
    if (late || this.inFlight >= this.limits.maxInFlight || phase.inFlight >= phase.maxVUs) {
      r.dropped++;
      if (late) r.late++;
      this.series.arrival(dueMs, false);
      return;
    }
    recordMs(this.lag, Math.max(0.001, startMs - dueMs));
    r.sent++;
    r.firstStartMs ??= startMs;
    r.lastStartMs = startMs;
    this.series.arrival(dueMs, true);
    this.inFlight++;
    phase.inFlight++;
    // Latency counts from the due time (coordinated omission), or from the start if the arrival fired a little early.
    this.iterate(phase, Math.min(dueMs, startMs), this.finished);
  }

  /** One function for every iteration's end, so an arrival allocates no callback of its own. */
  private readonly finished = (phase: Phase): void => {
    this.inFlight--;
    phase.inFlight--;
    if (this.inFlight === 0 && this.drained) this.drained();
  };
}
