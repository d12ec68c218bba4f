// Cross-cutting checks: verdicts computed after every check of a target ran,
// from the exchanges all of them recorded, instead of from requests of their
// own. Each registers itself with the other checks (src/check/registry.ts);
// the ptas reporter (reports/playwright-reporter.ts) adds their results per
// target.
import type { CheckMeta, CheckResult } from '../check/model.ts';
import { registeredChecks } from '../check/registry.ts';
import { errorBodiesAreJson } from './error-bodies.ts';

/** Importing error-bodies.ts above registered them. */
export const CROSSCUT_CHECKS: CheckMeta[] = registeredChecks('crosscut');

/** The cross-cutting verdicts of one target, from the checks that ran against it. */
export function crossCuttingResults(target: string, checks: readonly CheckResult[], baseUrl?: string): CheckResult[] {
  return [errorBodiesAreJson(target, checks, baseUrl)];
}
