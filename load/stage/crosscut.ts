// The cross-cutting checks (src/crosscut/) judged again once the load stage
// has run: the conformance stage computes them over its checks' exchanges
// before the load stage starts, so the error answers the
// probes received (429s, 413s: one sample of each kind, error-evidence.ts)
// would otherwise be judged by nobody. Each target's cross-cutting results
// are replaced by ones over both stages' evidence; every other result stays.
import type { CheckResult } from '../../src/check/model.ts';
import { CROSSCUT_CHECKS, crossCuttingResults, type CrossCutScope } from '../../src/crosscut/index.ts';

const CROSSCUT_IDS = new Set(CROSSCUT_CHECKS.map((c) => c.id));

/** The conformance stage's results with its cross-cutting ones recomputed over its checks and the load checks. */
export function withLoadEvidence(conformance: readonly CheckResult[], load: readonly CheckResult[], scope: CrossCutScope = {}): CheckResult[] {
  if (!load.length) return [...conformance];
  const targets = new Set(load.map((c) => c.target));
  const own = conformance.filter((c) => !(CROSSCUT_IDS.has(c.id) && targets.has(c.target)));
  const recomputed = [...targets].flatMap((target) =>
    crossCuttingResults(target, [...own.filter((c) => c.target === target), ...load.filter((c) => c.target === target)], scope),
  );
  // In the place the reporter put them (after the target's checks), so reports list them where they did.
  return [...own, ...recomputed];
}

/** A line for each cross-cutting verdict the load stage's evidence changed: the progress line printed before it said otherwise. */
export function rejudgedLines(before: readonly CheckResult[], after: readonly CheckResult[]): string[] {
  const earlier = new Map(before.filter((c) => CROSSCUT_IDS.has(c.id)).map((c) => [`${c.target} ${c.id}`, c.verdict]));
  return after
    .filter((c) => CROSSCUT_IDS.has(c.id) && earlier.get(`${c.target} ${c.id}`) !== c.verdict)
    .map((c) => `ptas: ${c.id} judged again with the load stage's error answers: ${c.verdict}${c.reason ? ` ${c.reason}` : ''}`);
}

/** The cross-cutting results withLoadEvidence made anew: each is its check's final judgment, told as a check event that replaces the first. */
export function judgedAgain(before: readonly CheckResult[], after: readonly CheckResult[]): CheckResult[] {
  const earlier = new Set(before);
  return after.filter((c) => CROSSCUT_IDS.has(c.id) && !earlier.has(c));
}
