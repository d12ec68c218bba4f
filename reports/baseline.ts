// `ptas report --baseline`: what changed since a previous run, for nightly
// CI. Checks are matched by target and id. A regression is a check that now
// FAILs or ERRORs and did not before (a new check that fails counts too:
// the implementation does not meet it); load figures are reported when they
// move beyond their noise, and a worse load verdict already shows as a check.
//
// WAIVED is neither failing nor passing here: a check that becomes WAIVED is
// not a regression (a waiver with an owner and an expiry accepts it), but a
// WAIVED check whose waiver expired since the baseline is FAIL again, and
// that is one. A WAIVED check that now passes is newly passing.
//
// FLAKY (a merged run's check that FAILed in one attempt and passed in a
// later one) is failing here, as the run verdict counts it: a check that
// becomes FLAKY is a regression, one that goes from FAIL to FLAKY or back is
// not (it failed before and fails now), and a FLAKY check that now passes is
// newly passing.
import type { CheckResult, Verdict } from '../src/check/model.ts';
import type { RunResults, RunVerdict } from '../src/results/model.ts';
import { beyondTolerance, figureKey, loadFigures, type FigureUnit } from './load-figures.ts';

export interface CheckChange {
  id: string;
  target: string;
  title: string;
  requirements: string[];
  /** Absent: the check did not run in that run. */
  before?: Verdict;
  after?: Verdict;
  reason?: string;
}

export interface LoadFigureChange {
  subject: string;
  figure: string;
  unit: FigureUnit;
  before?: number;
  after?: number;
  /** after/before − 1, when both exist and before is not 0. */
  relative?: number;
  change: 'worse' | 'better' | 'changed' | 'new' | 'gone';
}

export interface BaselineDiff {
  baseline: {
    startedAt: string;
    target: string;
    verdict: RunVerdict;
    suiteVersion: string;
    specVersion: string;
    profileHash: string;
  };
  verdict: { before: RunVerdict; after: RunVerdict };
  newlyFailing: CheckChange[];
  newlyPassing: CheckChange[];
  /** Every other verdict change, and checks that ran in only one of the runs. */
  otherChanges: CheckChange[];
  load: LoadFigureChange[];
  /** Newly failing checks: what --fail-on-regression exits 1 on. */
  regressions: number;
  /** Differences that make the comparison less meaningful (other spec, other profile, other target). */
  notes: string[];
}

const FAILING: ReadonlySet<Verdict> = new Set(['FAIL', 'FLAKY', 'ERROR']);
const PROBLEM: ReadonlySet<Verdict> = new Set(['FAIL', 'FLAKY', 'ERROR', 'WARN', 'WAIVED']);

const keyOf = (c: CheckResult): string => `${c.target}\u0000${c.id}`;

function change(before: CheckResult | undefined, after: CheckResult | undefined): CheckChange {
  const c = (after ?? before)!;
  return { id: c.id, target: c.target, title: c.title, requirements: c.requirements, before: before?.verdict, after: after?.verdict, reason: after?.reason };
}

function compareLoad(previous: RunResults, current: RunResults): LoadFigureChange[] {
  const before = new Map(loadFigures(previous.load).map((f) => [figureKey(f), f]));
  const after = loadFigures(current.load);
  const changes: LoadFigureChange[] = [];
  for (const figure of after) {
    const old = before.get(figureKey(figure));
    before.delete(figureKey(figure));
    if (!old) {
      changes.push({ subject: figure.subject, figure: figure.figure, unit: figure.unit, after: figure.value, change: 'new' });
      continue;
    }
    if (!beyondTolerance(figure, old.value)) continue;
    const up = figure.value > old.value;
    changes.push({
      subject: figure.subject,
      figure: figure.figure,
      unit: figure.unit,
      before: old.value,
      after: figure.value,
      relative: old.value !== 0 ? figure.value / old.value - 1 : undefined,
      change: figure.worse === 'none' ? 'changed' : (figure.worse === 'up') === up ? 'worse' : 'better',
    });
  }
  for (const gone of before.values()) changes.push({ subject: gone.subject, figure: gone.figure, unit: gone.unit, before: gone.value, change: 'gone' });
  return changes;
}

function notes(previous: RunResults, current: RunResults): string[] {
  const out: string[] = [];
  if (previous.run.target !== current.run.target) out.push(`The baseline ran against another target (${previous.run.target}).`);
  if (previous.run.specVersion !== current.run.specVersion) out.push(`The baseline used another spec version (${previous.run.specVersion}).`);
  if (previous.run.profileHash !== current.run.profileHash) out.push(`The baseline used another implementation profile (${previous.run.profileHash}).`);
  if (previous.run.suiteVersion !== current.run.suiteVersion) out.push(`The baseline was written by ptas ${previous.run.suiteVersion}.`);
  const waiversBefore = previous.waivers?.sha256;
  const waiversNow = current.waivers?.sha256;
  if (waiversBefore !== waiversNow) {
    out.push(waiversBefore ? `The baseline used another waiver file (${previous.waivers!.file}, sha256 ${waiversBefore.slice(0, 12)}${waiversNow ? '' : '; this run had none'}).` : 'The baseline ran without a waiver file.');
  }
  return out;
}

export function compareWithBaseline(previous: RunResults, current: RunResults): BaselineDiff {
  const before = new Map(previous.checks.map((c) => [keyOf(c), c]));
  const newlyFailing: CheckChange[] = [];
  const newlyPassing: CheckChange[] = [];
  const otherChanges: CheckChange[] = [];
  for (const now of current.checks) {
    const then = before.get(keyOf(now));
    before.delete(keyOf(now));
    if (then?.verdict === now.verdict) continue;
    if (FAILING.has(now.verdict) && !(then && FAILING.has(then.verdict))) newlyFailing.push(change(then, now));
    else if (now.verdict === 'PASS' && then && PROBLEM.has(then.verdict)) newlyPassing.push(change(then, now));
    else otherChanges.push(change(then, now));
  }
  for (const gone of before.values()) otherChanges.push(change(gone, undefined));
  return {
    baseline: {
      startedAt: previous.run.startedAt,
      target: previous.run.target,
      verdict: previous.verdict,
      suiteVersion: previous.run.suiteVersion,
      specVersion: previous.run.specVersion,
      profileHash: previous.run.profileHash,
    },
    verdict: { before: previous.verdict, after: current.verdict },
    newlyFailing,
    newlyPassing,
    otherChanges,
    load: compareLoad(previous, current),
    regressions: newlyFailing.length,
    notes: notes(previous, current),
  };
}
