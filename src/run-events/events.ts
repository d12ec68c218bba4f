// What a run says as it goes, as one stream of events: the checks as they
// finish, the load stage's staircase steps, its live progress, and the lines
// of the run's log. Whoever runs checks or probes (runner/run-checks.ts,
// app/run/conformance.ts, load/stage.ts and its probes, app/run/run.ts)
// emits into one sink; whoever shows the run consumes it: the terminal
// (src/run-events/terminal.ts) and `ptas serve`'s live view
// (app/serve/live-view.ts). A new kind of event is one more member of
// RunEvent, emitted where it happens; a consumer handles the kinds it shows
// and passes over the rest, so no consumer changes for a kind it ignores.
import type { CheckResult } from '../check/model.ts';

/** One finished check, as a live view shows it (results.json has the rest: evidence, findings, the record). */
export interface FinishedCheck extends Pick<CheckResult, 'id' | 'title' | 'area' | 'severity' | 'requirements' | 'target' | 'verdict' | 'reason' | 'durationMs'> {
  /** The checks the run planned (Playwright's tests; the cross-cutting and load checks come on top), when known. */
  planned?: number;
}

/** One step of a 429 staircase, as it ends. */
export interface LoadStep {
  /** The probe's check id. */
  probe: string;
  ratePerSecond: number;
  sent: number;
  refused: number;
}

export type RunEvent =
  /** One line of the run's log, without its newline: what the terminal prints. */
  | { kind: 'log'; line: string }
  /** A check finished: the runner's, then the cross-cutting ones, then the load stage's. */
  | { kind: 'check'; check: FinishedCheck }
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

export function finishedCheck(check: CheckResult, planned?: number): FinishedCheck {
  const { id, title, area, severity, requirements, target, verdict, reason, durationMs } = check;
  return { id, title, area, severity, requirements, target, verdict, ...(reason ? { reason } : {}), durationMs, ...(planned ? { planned } : {}) };
}
