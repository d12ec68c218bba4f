// Cross-cutting checks: verdicts computed after every check of a target ran,
// from the exchanges all of them recorded, instead of from requests of their
// own. The ptas reporter (reports/playwright-reporter.ts) adds them per
// target; `ptas list` and the requirement-coverage test list them from here.
import type { CheckMeta, CheckResult } from '../check/model.ts';
import { ERROR_BODIES_ARE_JSON, errorBodiesAreJson } from './error-bodies.ts';

export const CROSSCUT_CHECKS: CheckMeta[] = [ERROR_BODIES_ARE_JSON];

/** The cross-cutting verdicts of one target, from the checks that ran against it. */
export function crossCuttingResults(target: string, checks: readonly CheckResult[], baseUrl?: string): CheckResult[] {
  return [errorBodiesAreJson(target, checks, baseUrl)];
}
