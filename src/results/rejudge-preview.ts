// What judging one stored run again with the installed suite would change, as
// a lab planning an upgrade reads it (`ptas serve`'s "Re-judge stored runs
// with this version"): the run's verdict and certifiability before and
// after, each check whose verdict or basis changes, and which checks are new
// in this suite version, so a certifier tells the flips that new checks cause
// from those that changed judgments cause. src/results/rejudge.ts judges;
// this sets before beside after. Pure: it reads no file and sends nothing.
import { describeBasis } from '../check/basis.ts';
import type { CheckResult } from '../check/model.ts';
import { certifiability } from '../certify/certifiability.ts';
import { compareVersions } from '../requirements.ts';
import type { CertificationGap } from './certification-model.ts';
import type { RunResults, RunVerdict } from './model.ts';
import { describeNotJudged, rejudgeRun, verdictChanges, type JudgingSuite, type NotJudged, type RejudgedRun, type VerdictChange } from './rejudge.ts';

/** One side of a changed check: its verdict and reason, and the sentence it rests on as one line (src/check/basis.ts describeBasis). */
export interface JudgedSide {
  verdict: CheckResult['verdict'];
  reason?: string;
  basis?: string;
}

/** Whether a check is new in this suite version, by the catalogue. */
export interface Newness {
  /** The suite version since which the installed suite runs the check (its catalogue `since`); absent when the installed suite has no such check. */
  since?: string;
  /** The check is newer than the suite that judged the run. */
  new: boolean;
}

export interface ChangedCheck extends Newness {
  id: string;
  target: string;
  title: string;
  /** Absent: the stored run has no verdict of it. */
  before?: JudgedSide;
  /** Absent: the installed suite has no such check (removed or renamed). */
  after?: JudgedSide;
}

/**
 * How much judging the run again changes: its verdict or whether `ptas
 * verify` would accept it ('verdict'), only the verdict or basis of some
 * checks ('checks'), or nothing ('none').
 */
export type RunChange = 'verdict' | 'checks' | 'none';

export interface RejudgePreview {
  startedAt: string;
  /** The suite version that judged the stored run. */
  judgedBy: string;
  verdict: { before: RunVerdict; after: RunVerdict };
  /** before: as the run recorded it (null: recorded before runs stated it, so no change of it can be told). */
  certifiable: { before: boolean | null; after: boolean };
  /** Why `ptas verify` would refuse the run judged again (empty when it accepts it), each gap marked when its check is new. */
  gaps: Array<CertificationGap & Newness>;
  change: RunChange;
  checks: ChangedCheck[];
  /** Checks of this suite newer than the one that judged the run and never observed in it: only a new run gives them a verdict. */
  newChecks: Array<{ id: string; title: string; since: string }>;
  /** Checks kept as they were (or left out) instead of being judged again, grouped by why. */
  notJudged: Array<{ why: NotJudged; description: string; checks: string[] }>;
}

function side(judged: NonNullable<VerdictChange['before']>): JudgedSide {
  return { verdict: judged.verdict, ...(judged.reason !== undefined ? { reason: judged.reason } : {}), ...(judged.basis ? { basis: describeBasis(judged.basis) } : {}) };
}

function groupedNotJudged(notJudged: ReturnType<typeof rejudgeRun>['notJudged']): RejudgePreview['notJudged'] {
  const byWhy = new Map<NotJudged, string[]>();
  for (const { id, why } of notJudged) byWhy.set(why, [...(byWhy.get(why) ?? []), id]);
  return [...byWhy].map(([why, checks]) => ({ why, description: describeNotJudged(why), checks }));
}

/** A required check new in this suite that the run never observed is a gap no --grep made: it needs a run of this suite. */
function newGap(gap: CertificationGap, newChecks: RejudgePreview['newChecks']): (CertificationGap & Newness) | undefined {
  const check = newChecks.find((c) => c.id === gap.check);
  if (!check) return undefined;
  return { check: check.id, problem: `required check ${check.id} is new in ${check.since}: this run never observed it`, fix: 'run the implementation again with this suite', since: check.since, new: true };
}

/** What the installed suite's judgment of the stored run changes; `requiredChecks` are the checks a certification needs (app/certify/required-checks.ts). */
export function previewRejudged(stored: RunResults, suite: JudgingSuite, requiredChecks: readonly string[]): RejudgePreview {
  return previewOfJudged(stored, rejudgeRun(stored, suite), suite, requiredChecks);
}

/** The same, for a run the caller has judged again already (ptas rejudge writes the judged results too). */
export function previewOfJudged(stored: RunResults, judged: RejudgedRun, suite: JudgingSuite, requiredChecks: readonly string[]): RejudgePreview {
  const judgedBy = stored.run.suiteVersion;
  const sinceOf = new Map(suite.checks().map((c) => [c.id, c.since]));
  // New by the catalogue, whether or not the run has a verdict of it: a verdict an older suite gave a check it did not yet have was never this suite's judgment.
  const newness = (id: string): Newness => {
    const since = sinceOf.get(id);
    return since === undefined ? { new: false } : { since, new: compareVersions(since, judgedBy) > 0 };
  };
  const { results, notJudged, newChecks } = judged;
  const certification = certifiability(results, requiredChecks);
  const checks = verdictChanges(stored, results).map(
    (c): ChangedCheck => ({
      id: c.id,
      target: c.target,
      title: c.title,
      ...newness(c.id),
      ...(c.before ? { before: side(c.before) } : {}),
      ...(c.after ? { after: side(c.after) } : {}),
    }),
  );
  const certifiableBefore = stored.certification?.certifiable ?? null;
  const verdictOrCertifiability = stored.verdict !== results.verdict || (certifiableBefore !== null && certifiableBefore !== certification.certifiable);
  return {
    startedAt: stored.run.startedAt,
    judgedBy,
    verdict: { before: stored.verdict, after: results.verdict },
    certifiable: { before: certifiableBefore, after: certification.certifiable },
    gaps: certification.gaps.map((gap) => newGap(gap, newChecks) ?? { ...gap, ...newness(gap.check) }),
    change: verdictOrCertifiability ? 'verdict' : checks.length ? 'checks' : 'none',
    checks,
    newChecks,
    notJudged: groupedNotJudged(notJudged),
  };
}
