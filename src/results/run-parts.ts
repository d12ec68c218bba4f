// The parts of a sharded run and the attempts of a check, as results.json
// records them (run.shard, run.mergedFrom, a check's attempts). Types only;
// the policy that folds attempts into a verdict is src/results/attempts.ts.
import type { Verdict } from '../check/verdict-names.ts';

export interface ShardPart {
  /** 1-based. */
  index: number;
  total: number;
}

/** One run of one part of a sharded run, as run.mergedFrom lists it and the attempts name it. */
export interface PartRun extends ShardPart {
  /** Which run of the part, 1-based, in the order the part's runs started. */
  attempt: number;
  /** The run's start (results.json run.startedAt): what orders the attempts. */
  startedAt: string;
  /** SHA-256 of the run's manifest.json: which bundle it was. */
  manifestSha256: string;
}

/** What one run of its part said about a check. */
export interface CheckAttempt {
  run: PartRun;
  /** The verdict the check gave in that run, before any waiver. */
  verdict: Verdict;
  reason?: string;
  durationMs: number;
  /** This attempt decided the check's verdict: the check's reason basis and evidence are its. */
  decisive: boolean;
}

