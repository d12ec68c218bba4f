// The unstable checks of one implementation (src/results/instability.ts)
// over its stored runs. Nothing new is stored: each run's results.json is
// read where its bundle keeps it, and its light summary is kept in memory
// while the file stays as it is (a re-run's join rewrites it), so a page
// asking again does not parse every run's results anew.
import { observedRun, unstableChecks, type ObservedRun, type UnstableCheck } from '../../src/results/instability.ts';
import { DerivedFromResults } from './results-derived.ts';
import type { RunStore } from './store/runs.ts';

export class UnstableChecks {
  private readonly summaries: DerivedFromResults<ObservedRun>;

  constructor(private readonly store: RunStore) {
    this.summaries = new DerivedFromResults(store, observedRun);
  }

  /** The implementation's checks whose verdict differs between its runs of one suite version and profile. */
  of(implementation: string): UnstableCheck[] {
    // A run without results (queued, running, ended without a bundle) or with unreadable ones has nothing to compare.
    return unstableChecks(this.store.list({ implementation }).flatMap((run) => {
      const summary = this.summaries.of(run.id);
      return summary && 'value' in summary ? [summary.value] : [];
    }));
  }
}
