// Applies a waiver file (src/results/waivers-file.ts) to a run's results.
// Pure: the same results, waivers and `now` give the same answer, so expiry is
// tested with an injected date, never the wall clock.
//
// For each waiver, the checks it selects (by check id, or every check of a
// requirement, on every target) are judged by the verdict they gave:
//   unmatched  it selects no check of the run
//   expired    its last day (UTC) has passed: it waives nothing, its checks keep their verdict
//   applied    at least one selected check gave the expected verdict, with
//              expect.reason in its reason when given: those checks become WAIVED
//   stale      its checks ran and none gave the expected failure
// Whether stale and unmatched waivers fail the run (--strict-waivers) is the
// verdict policy's call: src/results/verdict.ts waiversFailingTheRun.
import type { CheckResult } from '../check/model.ts';
import type { RunResults } from './model.ts';
import { countVerdicts, runVerdict, verdictInputOf } from './verdict.ts';
import type { Waiver, WaiverCheckRef, WaiverFile, WaiverOutcome, WaiversSection } from './waiver-model.ts';

export interface ApplyWaiversOptions {
  /** --strict-waivers. */
  strict: boolean;
  /** The instant expiry is judged at (the run's end). */
  now: Date;
}

const DAY_MS = 86_400_000;

/** A waiver applies through the whole UTC day it names, and no longer from 00:00 UTC of the next day. */
export function isExpired(waiver: Pick<Waiver, 'expires'>, now: Date): boolean {
  return now.getTime() >= Date.parse(`${waiver.expires}T00:00:00Z`) + DAY_MS;
}

/** A check as it was before any waiver: applying again re-judges the verdicts the checks gave. */
function unwaived(check: CheckResult): CheckResult {
  if (!check.waived) return check;
  const { waived, ...rest } = check;
  return { ...rest, verdict: waived.verdict };
}

function selects(waiver: Waiver, check: CheckResult): boolean {
  return waiver.selector.kind === 'check' ? check.id === waiver.selector.id : check.requirements.includes(waiver.selector.id);
}

function showsExpectedFailure(waiver: Waiver, check: CheckResult): boolean {
  if (check.verdict !== waiver.expect.verdict) return false;
  return waiver.expect.reason === undefined || (check.reason ?? '').includes(waiver.expect.reason);
}

const refOf = (check: CheckResult): WaiverCheckRef => ({ target: check.target, id: check.id, verdict: check.verdict });

function staleNote(waiver: Waiver, selected: CheckResult[]): string {
  const gave = [...new Set(selected.map((c) => c.verdict))].join(', ');
  const sameVerdict = selected.some((c) => c.verdict === waiver.expect.verdict);
  const why = sameVerdict ? `${waiver.expect.verdict}, but not with "${waiver.expect.reason}" in the reason (another failure, which it does not waive)` : gave;
  return `its checks ran and gave ${why} instead of the expected ${waiver.expect.verdict}: remove the waiver if the fix is in, or correct its expect`;
}

function judge(waiver: Waiver, checks: CheckResult[], now: Date, shard: boolean): WaiverOutcome {
  const selected = checks.filter((check) => selects(waiver, check));
  if (selected.length === 0) {
    const why = shard ? 'its checks may be in another part of this sharded run; `ptas merge` judges it over the whole run' : 'a misspelt id, a renamed check, or one --grep left out';
    return { waiver, status: 'unmatched', checks: [], note: `no check of this run is selected by ${waiver.selector.kind} "${waiver.selector.id}": ${why}` };
  }
  const failing = selected.filter((check) => showsExpectedFailure(waiver, check));
  if (isExpired(waiver, now)) {
    const kept = failing.length ? `${failing.length} check${failing.length === 1 ? '' : 's'} it would waive keep${failing.length === 1 ? 's' : ''} ${waiver.expect.verdict}` : 'it would waive nothing';
    return { waiver, status: 'expired', checks: failing.map(refOf), note: `expired at the end of ${waiver.expires} (UTC): ${kept}; fix the failure or renew the waiver with a new date` };
  }
  if (failing.length) {
    return { waiver, status: 'applied', checks: failing.map(refOf), note: `waives ${failing.length} ${waiver.expect.verdict} until the end of ${waiver.expires} (UTC)` };
  }
  return { waiver, status: 'stale', checks: selected.map(refOf), note: staleNote(waiver, selected) };
}

/**
 * The results with the waivers applied: waived checks WAIVED (keeping the
 * verdict they gave in `waived`, and their reason), a "waivers" section
 * with every waiver's status, and the verdict and counts folded again.
 * A check two waivers could waive names the first of them, in file order.
 */
export function applyWaivers(results: RunResults, waivers: WaiverFile, options: ApplyWaiversOptions): RunResults {
  const original = results.checks.map(unwaived);
  const outcomes = waivers.waivers.map((waiver) => judge(waiver, original, options.now, Boolean(results.run.shard)));
  const waivedBy = new Map<CheckResult, Waiver>();
  outcomes.forEach((outcome) => {
    if (outcome.status !== 'applied') return;
    for (const check of original) if (!waivedBy.has(check) && selects(outcome.waiver, check) && showsExpectedFailure(outcome.waiver, check)) waivedBy.set(check, outcome.waiver);
  });
  const checks = original.map((check): CheckResult => {
    const waiver = waivedBy.get(check);
    return waiver ? { ...check, verdict: 'WAIVED', waived: { verdict: waiver.expect.verdict, waiver } } : check;
  });
  const section: WaiversSection = { file: waivers.file, sha256: waivers.sha256, strict: options.strict, evaluatedAt: options.now.toISOString(), outcomes };
  const waived: RunResults = { ...results, checks, waivers: section };
  return { ...waived, verdict: runVerdict(verdictInputOf(waived)), counts: countVerdicts(checks) };
}

/**
 * The waiver file a results.json was judged with, from its "waivers" section,
 * to judge it again over other checks: `ptas merge` joins parts of a sharded
 * run, where a waiver unmatched in one part may apply in another. Apply it to
 * the merged results with the parts' strictness and the latest evaluatedAt.
 */
export function waiverFileOf(section: WaiversSection): WaiverFile {
  return { file: section.file, sha256: section.sha256, waivers: section.outcomes.map((outcome) => outcome.waiver) };
}
