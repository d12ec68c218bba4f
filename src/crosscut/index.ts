// Cross-cutting checks: verdicts computed after every check of a target ran,
// from the exchanges all of them recorded, instead of from requests of their
// own. Each registers itself with the other checks (src/check/registry.ts);
// the conformance stage folds their results in per target once its checks
// ended (withCrossCuttingResults: app/run/conformance.ts, and `ptas merge`
// over the parts' checks).
import type { CheckMeta, CheckResult } from '../check/model.ts';
import { registeredChecks } from '../check/registry.ts';
import { errorBodiesAreJson } from './error-bodies.ts';

/** Importing error-bodies.ts above registered them. */
export const CROSSCUT_CHECKS: CheckMeta[] = registeredChecks('crosscut');

/** The cross-cutting verdicts of one target, from the checks that ran against it. */
export function crossCuttingResults(target: string, checks: readonly CheckResult[], baseUrl?: string): CheckResult[] {
  return [errorBodiesAreJson(target, checks, baseUrl)];
}

/** The checks followed by the cross-cutting results of every target some check ran against, in the order targets first appear. */
export function withCrossCuttingResults(checks: readonly CheckResult[], baseUrlOf: (target: string) => string | undefined): CheckResult[] {
  const targets = [...new Set(checks.map((c) => c.target))];
  return [...checks, ...targets.flatMap((target) => crossCuttingResults(target, checks.filter((c) => c.target === target), baseUrlOf(target)))];
}
