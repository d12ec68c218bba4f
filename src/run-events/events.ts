// What a run says as it goes, as one stream of events: the checks as they
// finish (each whole: verdict, findings, evidence, record), the load stage's
// staircase steps, its live progress and its section of the results, problems
// outside any check, and the lines of the run's log. Whoever runs checks or
// probes (runner/collector.ts through runner/check-events.ts,
// app/run/conformance.ts, load/stage.ts and its probes, app/run/run.ts)
// emits into one sink; whoever shows or keeps the run consumes it: the
// terminal (src/run-events/terminal.ts), `ptas serve`'s live view
// (app/serve/live-view.ts), and the results a run writes
// (src/run-events/heard-results.ts), from which results.json is built. A new kind of event is one more member of
// RunEvent, emitted where it happens; a consumer handles the kinds it shows
// and passes over the rest, so no consumer changes for a kind it ignores.
import type { CheckResult } from '../check/model.ts';
import type { LoadSection } from '../results/load-model.ts';

/** One step of a 429 staircase, as it ends. */
export interface LoadStep {
  /** The probe's check id. */
  probe: string;
  ratePerSecond: number;
  sent: number;
  refused: number;
  /** The climb it is part of: 1, then 2 … when a climb that drew no 429 while the generator fell behind is climbed again. */
  climb: number;
}

export type RunEvent =
  /** One line of the run's log, without its newline: what the terminal prints. */
  | { kind: 'log'; line: string }
  /**
   * A check finished, whole: the runner's, then the cross-cutting ones, then
   * the load stage's. A later event for the same check and target is its
   * final judgment and replaces the earlier one (the cross-cutting checks
   * judged again over the load stage's exchanges).
   */
  | { kind: 'check'; check: CheckResult; planned?: number }
  /** A problem outside any check (a suite file that failed to load, a worker crash, a cross-cutting check that could not run). */
  | { kind: 'problem'; message: string }
  /** The load stage's section of the results (its probes' measurements), once, at its end. */
  | { kind: 'load-stage'; load: LoadSection }
  /** A step of a 429 staircase of the load stage ended. */
  | { kind: 'load-step'; step: LoadStep }
  /**
   * The live state of a long activity (a load probe's rates and answers, about
   * once a second), which its next one replaces: a terminal redraws it in
   * place, a log keeps one every few seconds (progressAsLog).
   */
  | { kind: 'progress'; source: string; line: string; elapsedSec: number }
  /** That activity's progress is over or paused: off the live line until its next progress. */
  | { kind: 'progress-end'; source: string };

/** Where a run's events go: one consumer, or several through fanOut. */
export type RunEventSink = (event: RunEvent) => void;

/** The sink of a run nobody follows. */
export const ignoreEvents: RunEventSink = () => undefined;

/** Every event to each of the sinks, in their order. */
export function fanOut(...sinks: RunEventSink[]): RunEventSink {
  return (event) => {
    for (const sink of sinks) sink(event);
  };
}

/** Each line of `text` as a log event; a newline at its end ends its last line (it makes no empty line). */
export function logText(events: RunEventSink, text: string): void {
  for (const line of text.replace(/\r?\n$/, '').split(/\r?\n/)) events({ kind: 'log', line });
}

/** How often a log keeps an activity's progress. */
const LOG_PROGRESS_EVERY_SEC = 5;

/**
 * For a consumer that keeps a log rather than a live line (a terminal that is
 * a file or a pipe, the console's log): each activity's progress becomes a log
 * line once every few seconds of the activity's own clock; every other event
 * passes on as it is.
 */
export function progressAsLog(sink: RunEventSink, everySec = LOG_PROGRESS_EVERY_SEC): RunEventSink {
  const lastLogged = new Map<string, number>();
  return (event) => {
    if (event.kind === 'progress-end') return;
    if (event.kind !== 'progress') return sink(event);
    if (event.elapsedSec - (lastLogged.get(event.source) ?? -Infinity) < everySec) return;
    lastLogged.set(event.source, event.elapsedSec);
    sink({ kind: 'log', line: event.line });
  };
}
