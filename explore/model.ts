// What an explored area is: the rules of the spec it probes (each a check of
// its own, `explore.<area>.<rule>`, registered with every other check) and a
// model of the specified behaviour. The model makes generated cases (plain
// JSON data, so a replay file can hold one), runs a case against the target,
// and says for each rule the case reached what the spec allows: a
// contradiction of the spec's words, a standard it names or the profile's
// declaration is a FAIL with that basis (a SHOULD's a WARN); where all three
// are silent, the case is recorded, never judged (at most REVIEW).
import type fc from 'fast-check';
import type { CheckMeta } from '../src/check/model.ts';
import type { ResolvedProfile } from '../src/config/profile.ts';
import type { CaseRun } from './case-run.ts';

/** A model ready to explore one target: the cases it makes and how one runs. */
export interface AreaExplorer<Case> {
  /** Every case the model can make, with its shrinking. */
  cases: fc.Arbitrary<Case>;
  /** The case in one line, as a report and a replay file name it. */
  describe(c: Case): string;
  /** The case's kind, without its values (of the cases for a human, one of each kind is kept); default its description. */
  kindOf?(c: Case): string;
  /** Sends the case and judges it: each rule it reaches says, in `run`, what it found. */
  run(c: Case, run: CaseRun): Promise<void>;
}

/** Why a model cannot explore this target: what the profile lacks, and the key that would give it. */
export interface Unexplorable {
  unexplorable: string;
  configKey?: string;
}

export interface AreaModel<Case = unknown> {
  /** The spec area, as check ids name it after `explore.`. */
  area: string;
  rules: readonly CheckMeta[];
  /** The model for this target's profile, or why there is none. */
  prepare(profile: ResolvedProfile): AreaExplorer<Case> | Unexplorable;
}

export function isUnexplorable(prepared: AreaExplorer<unknown> | Unexplorable): prepared is Unexplorable {
  return 'unexplorable' in prepared;
}
