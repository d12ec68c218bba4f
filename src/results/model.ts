// results.json: everything one run produced. The HTML report, junit.xml,
// the terminal summary and `ptas report --baseline` are all renderings of it.
// schemas/results.schema.json publishes this shape.
import type { CheckResult, Verdict } from '../check/model.ts';
import type { Requirement } from '../requirements.ts';
import type { PartRun, ShardPart } from './run-parts.ts';
import type { LoadSection } from './load-model.ts';
import type { WaiversSection } from './waiver-model.ts';
import type { Certification } from './certification-model.ts';

export type { ShardPart } from './run-parts.ts';

/** src/results/verdict.ts decides which: the policy table is there. */
export type RunVerdict = 'CONFORMANT' | 'CONFORMANT WITH WAIVERS' | 'NOT CONFORMANT' | 'INCOMPLETE';

export interface RunMetadata {
  /** Base URL of the implementation under test. */
  target: string;
  implementation?: string;
  suiteVersion: string;
  specVersion: string;
  /** sha-256 prefix of the profile with secrets replaced: same profile, same hash. */
  profileHash: string;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  /** Set when the run used the bundled reference implementation. */
  reference?: { faults: string[]; variants?: string[]; conditions?: string[] };
  /** TLS verification was switched off (--insecure). */
  insecureTls: boolean;
  /** The run was cut short (SIGINT, deadline); the verdict is INCOMPLETE. */
  interrupted?: string;
  /** This run is one part of a sharded run (--shard index/total); `ptas merge` makes the whole. */
  shard?: ShardPart;
  /**
   * This run was merged from shard bundles (ptas merge): each run of each
   * part, by its manifest's SHA-256, in part order and, within a part run
   * more than once, in the order the runs started (src/results/attempts.ts).
   */
  mergedFrom?: PartRun[];
  /**
   * This run is a stored run judged again offline by another suite
   * (ptas rejudge): the suite version that judged it first, and the SHA-256
   * of its results.json (and of its manifest.json, when it was a bundle).
   */
  rejudgedFrom?: { suiteVersion: string; resultsSha256: string; manifestSha256?: string };
}

export interface TraceabilityRow extends Requirement {
  /** Ids of the checks covering this requirement (empty: uncovered). */
  checks: string[];
}

export interface RunResults {
  schemaVersion: 1;
  run: RunMetadata;
  verdict: RunVerdict;
  counts: Record<Verdict, number>;
  checks: CheckResult[];
  requirements: TraceabilityRow[];
  load?: LoadSection;
  /** Problems outside any check. */
  errors: string[];
  /** The waiver file the run was given (--waivers) and what became of each waiver. */
  waivers?: WaiversSection;
  /** Whether `ptas verify` accepts the run's bundle, and if not each gap with its fix (src/certify/certifiability.ts). */
  certification?: Certification;
}
