// The unstable checks of one implementation (src/results/instability.ts)
// over its stored runs. Nothing new is stored: each run's results.json is
// read where its bundle keeps it, and its light summary is kept in memory
// while the file stays as it is (a re-run's join rewrites it), so a page
// asking again does not parse every run's results anew.
import { statSync } from 'node:fs';
import path from 'node:path';
import type { RunResults } from '../../src/results/model.ts';
import { observedRun, unstableChecks, type ObservedRun, type UnstableCheck } from '../../src/results/instability.ts';
import { readJsonFile } from './store/atomic.ts';
import type { RunStore } from './store/runs.ts';

interface Summary {
  /** The results file as it was summarised: a change of either means it was written again. */
  mtimeMs: number;
  size: number;
  observed: ObservedRun;
}

export class UnstableChecks {
  private readonly summaries = new Map<string, Summary>();

  constructor(private readonly store: RunStore) {}

  /** The implementation's checks whose verdict differs between its runs of one suite version and profile. */
  of(implementation: string): UnstableCheck[] {
    return unstableChecks(this.store.list({ implementation }).flatMap((run) => this.observed(run.id) ?? []));
  }

  /** The run's summary, or undefined while it has no results (queued, running, or ended without a bundle). */
  private observed(runId: string): ObservedRun | undefined {
    const file = path.join(this.store.bundleDir(runId), 'results.json');
    let stat: { mtimeMs: number; size: number };
    try {
      stat = statSync(file);
    } catch {
      return undefined;
    }
    const kept = this.summaries.get(runId);
    if (kept && kept.mtimeMs === stat.mtimeMs && kept.size === stat.size) return kept.observed;
    const results = readJsonFile<RunResults>(file);
    if (!results?.run || !Array.isArray(results.checks)) return undefined;
    const observed = observedRun(runId, results);
    this.summaries.set(runId, { mtimeMs: stat.mtimeMs, size: stat.size, observed });
    return observed;
  }
}
