// A run's events (src/run-events/events.ts) as `ptas serve` publishes them,
// to the console's live view and the API's event stream alike
// (app/serve/contract.ts RunEvent): each log line, each finished check with
// the running counts and the time since the run started, each 429 staircase
// step, and the load probes' live progress as a log line every few seconds.
// Every line and reason passes the run's Redactor first: the profile's
// secrets never reach an event.
import type { Verdict } from '../../src/check/model.ts';
import type { Redactor } from '../../src/http/redact.ts';
import type { CheckResult } from '../../src/check/model.ts';
import { progressAsLog, type RunEventSink } from '../../src/run-events/events.ts';
import { CROSSCUT_CHECKS } from '../../src/crosscut/index.ts';
import { LOAD_CHECKS } from '../../load/checks.ts';
import { AREA_MODELS } from '../../explore/areas/index.ts';
import type { RunEvent } from './contract.ts';

export interface LiveViewInput {
  redactor: Redactor;
  emit: (event: RunEvent) => void;
  /** When the run started (performance.now()), for the events' elapsed time. */
  startedAt: number;
  /** Whether the run has a load stage, whose checks the run reports on top of the planned ones. */
  load: boolean;
  /** Whether the run explores (every area), whose rules the run reports on top too. */
  explore?: boolean;
}

export interface LiveView {
  /** The sink the run reports to. */
  events: RunEventSink;
  /** The verdicts of the checks heard so far, by verdict. */
  counts: Partial<Record<Verdict, number>>;
}

/** The longest log line an event carries (a runaway line is cut, not dropped). */
const MAX_LINE = 4_000;

export function liveView({ redactor, emit, startedAt, load, explore }: LiveViewInput): LiveView {
  const explored = explore ? AREA_MODELS.reduce((n, model) => n + model.rules.length, 0) : 0;
  const counts: Partial<Record<Verdict, number>> = {};
  const log = (text: string) => {
    const line = redactor.redactString(text);
    emit({ type: 'log', line: line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}…` : line });
  };
  // A check told again (its final judgment) replaces its first verdict in the counts, as the console replaces its row.
  const verdicts = new Map<string, Verdict>();
  const check = (finished: CheckResult, planned?: number) => {
    const key = `${finished.target}\u0000${finished.id}`;
    const earlier = verdicts.get(key);
    if (earlier) {
      const left = (counts[earlier] ?? 1) - 1;
      if (left) counts[earlier] = left;
      else delete counts[earlier];
    }
    verdicts.set(key, finished.verdict);
    counts[finished.verdict] = (counts[finished.verdict] ?? 0) + 1;
    const { id, title, target, verdict, reason, durationMs } = finished;
    emit({
      type: 'check',
      check: { id, title, target, verdict, ...(reason ? { reason: redactor.redactString(reason) } : {}), durationMs },
      counts: { ...counts },
      elapsedMs: Math.round(performance.now() - startedAt),
      ...(planned ? { planned, expected: planned + CROSSCUT_CHECKS.length + (load ? LOAD_CHECKS.length : 0) + explored } : {}),
    });
  };
  const events = progressAsLog((event) => {
    switch (event.kind) {
      case 'log':
        return log(event.line);
      case 'check':
        return check(event.check, event.planned);
      case 'load-step':
        return emit({ type: 'load-step', ...event.step });
    }
  });
  return { events, counts };
}
