// "Re-judge stored runs with this version": every stored run judged again by
// the installed suite (src/results/rejudge-preview.ts), offline: nothing is
// sent to any implementation and nothing is written. Each run's results.json
// is read where its bundle keeps it, and what judging it again changes is
// kept in memory while the file stays as it is (a re-run's join rewrites
// it): the installed suite cannot change while the server runs, so asking
// again judges only the runs written since.
import type { JudgingSuite } from '../../src/results/rejudge.ts';
import { previewRejudged, type RejudgePreview } from '../../src/results/rejudge-preview.ts';
import { suiteVersion } from '../../src/version.ts';
import { requiredCheckIds } from '../certify/required-checks.ts';
import { installedSuite } from '../rejudge/rejudge.ts';
import { listAllChecks } from '../run/list.ts';
import type { RunRecord } from './contract.ts';
import { DerivedFromResults } from './results-derived.ts';
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
  private previews: DerivedFromResults<RejudgePreview> | undefined;
  private judge: Promise<Judge> | undefined;

  constructor(private readonly store: RunStore) {}

  /** Every ended run (of one implementation, if given) judged again by the installed suite. */
  async of(filter: { implementation?: string } = {}): Promise<RejudgeOverview> {
    this.judge ??= loadJudge().catch((error: unknown) => {
      this.judge = undefined;
      throw error;
    });
    const judge = await this.judge;
    this.previews ??= new DerivedFromResults(this.store, (_run, results) => {
      try {
        return previewRejudged(results, judge.suite, judge.required);
      } catch (error) {
        throw new Error(`judging it again failed: ${(error as Error).message}`);
      }
    });
    const listed: StoredRunPreview[] = [];
    const unreadable: RejudgeOverview['unreadable'] = [];
    let unchanged = 0;
    for (const run of this.store.list(filter).filter(ended)) {
      const judged = this.previews.of(run.id);
      if (judged === undefined) continue;
      if ('problem' in judged) unreadable.push({ run: run.id, implementation: run.implementation, problem: judged.problem });
      else if (judged.value.change === 'none') unchanged++;
      else listed.push({ run: run.id, implementation: run.implementation, ...judged.value });
    }
    const first = (change: RejudgePreview['change']) => listed.filter((r) => r.change === change);
    return { suiteVersion, runs: [...first('verdict'), ...first('checks')], unchanged, unreadable };
  }
}
