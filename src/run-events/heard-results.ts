// The results of a run as its event stream told them (events.ts): every check
// in the order it finished, a later judgment of a check replacing the earlier
// one in place; the problems outside any check; the load stage's section.
// `ptas run` builds results.json from what this sink heard, and the check
// runner its own output (runner/run-checks.ts), so what a run shows as it
// goes and what it keeps are one stream.
import type { CheckResult } from '../check/model.ts';
import type { LoadSection } from '../results/load-model.ts';
import type { RunEventSink } from './events.ts';

export interface HeardResults {
  /** The sink to hear the run with (fanOut it beside the run's other consumers). */
  events: RunEventSink;
  checks(): CheckResult[];
  problems(): string[];
  load(): LoadSection | undefined;
}

const keyOf = (check: Pick<CheckResult, 'id' | 'target'>) => `${check.target}\u0000${check.id}`;

export function heardResults(): HeardResults {
  // A Map keeps the order keys were first set: a check judged again keeps its place.
  const checks = new Map<string, CheckResult>();
  const problems: string[] = [];
  let load: LoadSection | undefined;
  return {
    events: (event) => {
      if (event.kind === 'check') checks.set(keyOf(event.check), event.check);
      else if (event.kind === 'problem') problems.push(event.message);
      else if (event.kind === 'load-stage') load = event.load;
    },
    checks: () => [...checks.values()],
    problems: () => [...problems],
    load: () => load,
  };
}
