// "Re-judge stored runs with this version": every stored run judged again by
// the installed suite (src/results/rejudge-preview.ts), offline: nothing is
// sent to any implementation and nothing is written. Each run's results.json
// is read where its bundle keeps it, and what judging it again changes is
// kept in memory while the file stays as it is (a re-run's join rewrites
// it): the installed suite cannot change while the server runs, so asking
// again judges only the runs written since.
import { statSync } from 'node:fs';
import path from 'node:path';
import type { RunResults } from '../../src/results/model.ts';
import type { JudgingSuite } from '../../src/results/rejudge.ts';
import { previewRejudged, type RejudgePreview } from '../../src/results/rejudge-preview.ts';
import { suiteVersion } from '../../src/version.ts';
import { requiredCheckIds } from '../certify/required-checks.ts';
import { installedSuite } from '../rejudge/rejudge.ts';
import { listAllChecks } from '../run/list.ts';
import type { RunRecord } from './contract.ts';
import { readJsonFile } from './store/atomic.ts';
import type { RunStore } from './store/runs.ts';

/** One stored run judged again: which run, whose, and what changes. */
export interface StoredRunPreview extends RejudgePreview {
  run: string;
  implementation: string;
}

export interface RejudgeOverview {
  /** The installed suite's version: the one judging. */
  suiteVersion: string;
  /** The runs whose verdict or certifiability would change, then those where only some checks would, each group newest first. */
  runs: StoredRunPreview[];
  /** The runs judging again changes nothing in. */
  unchanged: number;
  /** Runs with a results.json that could not be judged again, each with why. */
  unreadable: Array<{ run: string; implementation: string; problem: string }>;
}

interface Kept {
  /** The results file as it was judged: a change of either means it was written again. */
  mtimeMs: number;
  size: number;
  preview: RejudgePreview;
}

/** The installed suite and the checks a certification needs, from every registered check. */
interface Judge {
  suite: JudgingSuite;
  required: string[];
}

async function loadJudge(): Promise<Judge> {
  // Registers every check (conformance, cross-cutting, load): the suite's metadata and the catalogue's `since` come from the registry.
  await listAllChecks();
  return { suite: installedSuite(), required: await requiredCheckIds() };
}

/** A run still queued or running has no final results.json to read. */
const ended = (run: RunRecord) => run.status === 'finished' || run.status === 'cancelled';

export class RejudgePreviews {
  private readonly kept = new Map<string, Kept>();
  private judge: Promise<Judge> | undefined;

  constructor(private readonly store: RunStore) {}

  /** Every ended run (of one implementation, if given) judged again by the installed suite. */
  async of(filter: { implementation?: string } = {}): Promise<RejudgeOverview> {
    this.judge ??= loadJudge().catch((error: unknown) => {
      this.judge = undefined;
      throw error;
    });
    const judge = await this.judge;
    const listed: StoredRunPreview[] = [];
    const unreadable: RejudgeOverview['unreadable'] = [];
    let unchanged = 0;
    for (const run of this.store.list(filter).filter(ended)) {
      const judged = this.preview(run.id, judge);
      if (judged === undefined) continue;
      if (typeof judged === 'string') unreadable.push({ run: run.id, implementation: run.implementation, problem: judged });
      else if (judged.change === 'none') unchanged++;
      else listed.push({ run: run.id, implementation: run.implementation, ...judged });
    }
    const first = (change: RejudgePreview['change']) => listed.filter((r) => r.change === change);
    return { suiteVersion, runs: [...first('verdict'), ...first('checks')], unchanged, unreadable };
  }

  /** The run judged again; undefined when it wrote no results.json (it ended before its checks); a string says why it could not be judged. */
  private preview(runId: string, judge: Judge): RejudgePreview | string | undefined {
    const file = path.join(this.store.bundleDir(runId), 'results.json');
    let stat: { mtimeMs: number; size: number };
    try {
      stat = statSync(file);
    } catch {
      return undefined;
    }
    const kept = this.kept.get(runId);
    if (kept && kept.mtimeMs === stat.mtimeMs && kept.size === stat.size) return kept.preview;
    const results = readJsonFile<RunResults>(file);
    if (!results?.run || !Array.isArray(results.checks)) return 'its results.json is not a run’s results';
    let preview: RejudgePreview;
    try {
      preview = previewRejudged(results, judge.suite, judge.required);
    } catch (error) {
      return `judging it again failed: ${(error as Error).message}`;
    }
    this.kept.set(runId, { mtimeMs: stat.mtimeMs, size: stat.size, preview });
    return preview;
  }
}
