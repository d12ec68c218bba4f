// A stored run judged again, offline, by the installed suite: each check's
// verdict from its record (src/check/record.ts) with the installed catalogue's
// severity, requirements and sentences; the cross-cutting checks computed
// again over the same exchanges with the profile values their records kept;
// the waivers judged again as of when the run judged them; the run's verdict
// folded again. Nothing here sends a request or reads a clock, so the same
// suite gives the same verdicts, and another suite shows what its rules change.
import type { CheckMeta, CheckRecord, CheckResult } from '../check/model.ts';
import type { DecidedOutcome } from '../check/outcome.ts';
import { compareVersions } from '../requirements.ts';
import { crossCuttingResults, type CrossCutScope } from '../crosscut/index.ts';
import { buildResults } from './build.ts';
import type { RunResults } from './model.ts';
import { applyWaivers, waiverFileOf } from './waivers.ts';

/** What the judgment takes from the installed suite: each check's metadata, and which checks are cross-cutting. */
export interface JudgingSuite {
  version: string;
  /** The installed metadata of a check (severity and requirements from the catalogue); undefined when this suite has no such check. */
  metaOf(id: string): CheckMeta | undefined;
  isCrossCutting(id: string): boolean;
  /** Every check of this suite, with the version that first ran it. */
  checks(): Array<CheckMeta & { since: string }>;
  /** The judgment of a record: judgeRecord (src/check/record.ts), a load probe's analysis first where the record keeps one. */
  judge(meta: CheckMeta, record: CheckRecord): DecidedOutcome;
}

/** Why a check of the stored run kept the verdict it had instead of being judged again. */
export type NotJudged = 'no-record' | 'attempts' | 'not-in-suite';

export interface RejudgedRun {
  results: RunResults;
  /** Checks that could not be judged again, and why: kept as they were (or, not-in-suite, left out). */
  notJudged: Array<{ target: string; id: string; why: NotJudged }>;
  /** Checks of this suite newer than the suite that observed the run: nothing of them was observed (run them live). */
  newChecks: Array<{ id: string; title: string; since: string }>;
}

const NOT_JUDGED_WHY: Record<NotJudged, string> = {
  'no-record': 'recorded before checks kept their record (an earlier suite version): its verdict is kept as it was',
  attempts: 'merged from several attempts (ptas merge): the attempts keep verdicts, not records, so its verdict is kept as it was',
  'not-in-suite': 'no check of the installed suite has this id (removed or renamed): left out',
};

export const describeNotJudged = (why: NotJudged): string => NOT_JUDGED_WHY[why];

/** The check as the installed suite judges its record, or why it cannot. */
function judged(check: CheckResult, suite: JudgingSuite): CheckResult | NotJudged {
  const meta = suite.metaOf(check.id);
  if (!meta) return 'not-in-suite';
  if (check.attempts?.length) return 'attempts';
  if (!check.record) return 'no-record';
  const { waived: _waived, reason: _reason, basis: _basis, details: _details, configKey: _configKey, ...kept } = check;
  return { ...kept, ...meta, ...suite.judge(meta, check.record) };
}

/** The scope a cross-cutting check judged with, from the profile values its record kept. */
function scopeOf(check: CheckResult): CrossCutScope {
  const values = check.record?.profileValues ?? {};
  const baseUrl = values.baseUrl;
  const intermediary = values['http.intermediary'];
  return {
    ...(typeof baseUrl === 'string' ? { baseUrl } : {}),
    ...(intermediary && typeof intermediary === 'object' ? { intermediary: intermediary as CrossCutScope['intermediary'] } : {}),
  };
}

/** The stored run judged again by `suite`, every check in the place it had. */
export function rejudgeRun(stored: RunResults, suite: JudgingSuite): RejudgedRun {
  const notJudged: RejudgedRun['notJudged'] = [];
  const own = new Map<CheckResult, CheckResult | undefined>();
  for (const check of stored.checks.filter((c) => !suite.isCrossCutting(c.id))) {
    const result = judged(check, suite);
    if (typeof result === 'string') notJudged.push({ target: check.target, id: check.id, why: result });
    own.set(check, result === 'not-in-suite' ? undefined : typeof result === 'string' ? check : result);
  }
  const judgedOwn = [...own.values()].filter((c): c is CheckResult => c !== undefined);
  // A cross-cutting check over the exchanges of every other check of its target, conformance and load, as the run computed it.
  const crossCutting = (stale: CheckResult): CheckResult | undefined => {
    if (!stale.record) {
      notJudged.push({ target: stale.target, id: stale.id, why: 'no-record' });
      return stale;
    }
    const again = crossCuttingResults(stale.target, judgedOwn.filter((c) => c.target === stale.target), scopeOf(stale)).find((c) => c.id === stale.id);
    if (!again) notJudged.push({ target: stale.target, id: stale.id, why: 'not-in-suite' });
    return again && { ...again, durationMs: stale.durationMs, timeline: stale.timeline };
  };
  const checks = stored.checks.map((c) => (own.has(c) ? own.get(c) : crossCutting(c))).filter((c): c is CheckResult => c !== undefined);
  const rebuilt = buildResults({ run: stored.run, checks, load: stored.load, errors: stored.errors });
  // As of when the run judged its waivers: an expiry passed since does not change a verdict judged again.
  const results = stored.waivers
    ? applyWaivers(rebuilt, waiverFileOf(stored.waivers), { strict: stored.waivers.strict, now: new Date(stored.waivers.evaluatedAt) })
    : rebuilt;
  const ran = new Set(stored.checks.map((c) => c.id));
  const newChecks = suite
    .checks()
    .filter((c) => !ran.has(c.id) && compareVersions(c.since, stored.run.suiteVersion) > 0)
    .map((c) => ({ id: c.id, title: c.title, since: c.since }));
  return { results, notJudged, newChecks };
}

/** A check whose verdict or basis the new judgment changes, or that only one of the two judgments has. */
export interface VerdictChange {
  target: string;
  id: string;
  title: string;
  before?: Pick<CheckResult, 'verdict' | 'reason' | 'basis'>;
  after?: Pick<CheckResult, 'verdict' | 'reason' | 'basis'>;
}

const keyOf = (c: Pick<CheckResult, 'target' | 'id'>) => `${c.target}\u0000${c.id}`;
const shown = (c: CheckResult) => ({ verdict: c.verdict, ...(c.reason !== undefined ? { reason: c.reason } : {}), ...(c.basis ? { basis: c.basis } : {}) });
const sameBasis = (a: CheckResult, b: CheckResult) => JSON.stringify(a.basis ?? null) === JSON.stringify(b.basis ?? null);

/** Every check whose verdict or basis differs between two judgments of one run, in the order of the first. */
export function verdictChanges(before: RunResults, after: RunResults): VerdictChange[] {
  const later = new Map(after.checks.map((c) => [keyOf(c), c]));
  const earlier = new Set(before.checks.map(keyOf));
  const changes: VerdictChange[] = [];
  for (const old of before.checks) {
    const now = later.get(keyOf(old));
    if (now && now.verdict === old.verdict && sameBasis(old, now)) continue;
    changes.push({ target: old.target, id: old.id, title: old.title, before: shown(old), ...(now ? { after: shown(now) } : {}) });
  }
  for (const now of after.checks) if (!earlier.has(keyOf(now))) changes.push({ target: now.target, id: now.id, title: now.title, after: shown(now) });
  return changes;
}
