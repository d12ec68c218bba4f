// What the server derives from a stored run's results.json (its unstable
// checks' summary, its re-judgment), read where the run's bundle keeps it and
// kept in memory while the file stays as it is: a re-run's join rewrites it,
// and a page asking again should not parse every run's results anew.
import { statSync } from 'node:fs';
import path from 'node:path';
import type { RunResults } from '../../src/results/model.ts';
import { readJsonFile } from './store/atomic.ts';
import type { RunStore } from './store/runs.ts';

/** What deriving from a run gave: its value, or why its results.json could not give one. */
export type Derived<T> = { value: T } | { problem: string };

interface Kept<T> {
  /** The results file as it was read: a change of either means it was written again. */
  mtimeMs: number;
  size: number;
  derived: Derived<T>;
}

export class DerivedFromResults<T> {
  private readonly kept = new Map<string, Kept<T>>();

  /** `derive` may throw: what it throws is the run's problem, not the server's. */
  constructor(
    private readonly store: RunStore,
    private readonly derive: (runId: string, results: RunResults) => T,
  ) {}

  /** The run's value; undefined while it has no results.json (queued, running, or ended before its checks). */
  of(runId: string): Derived<T> | undefined {
    const file = path.join(this.store.bundleDir(runId), 'results.json');
    let stat: { mtimeMs: number; size: number };
    try {
      stat = statSync(file);
    } catch {
      return undefined;
    }
    const kept = this.kept.get(runId);
    if (kept && kept.mtimeMs === stat.mtimeMs && kept.size === stat.size) return kept.derived;
    const derived = this.read(runId, file);
    this.kept.set(runId, { mtimeMs: stat.mtimeMs, size: stat.size, derived });
    return derived;
  }

  private read(runId: string, file: string): Derived<T> {
    const results = readJsonFile<RunResults>(file);
    if (!results?.run || !Array.isArray(results.checks)) return { problem: 'its results.json is not a run’s results' };
    try {
      return { value: this.derive(runId, results) };
    } catch (error) {
      return { problem: (error as Error).message };
    }
  }
}
