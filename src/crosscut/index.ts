// Cross-cutting checks: verdicts computed after every check of a target ran,
// from the exchanges all of them recorded, instead of from requests of their
// own. Each registers itself with the other checks (src/check/registry.ts);
// the conformance stage folds their results in per target once its checks
// ended (withCrossCuttingResults: app/run/conformance.ts, and `ptas merge`
// over the parts' checks).
import type { CheckMeta, CheckResult } from '../check/model.ts';
import { registeredChecks } from '../check/registry.ts';
import { errorBodiesAreJson } from './error-bodies.ts';
import type { CrossCutScope } from './error-answers.ts';

export type { CrossCutScope } from './error-answers.ts';

/** Importing error-bodies.ts above registered them. */
export const CROSSCUT_CHECKS: CheckMeta[] = registeredChecks('crosscut');

/** The cross-cutting verdicts of one target, from the checks that ran against it (scope: its base URL and declared intermediary). */
export function crossCuttingResults(target: string, checks: readonly CheckResult[], scope: CrossCutScope = {}): CheckResult[] {
  return [errorBodiesAreJson(target, checks, scope)];
}

/** The checks followed by the cross-cutting results of every target some check ran against, in the order targets first appear. */
export function withCrossCuttingResults(checks: readonly CheckResult[], scopeOf: (target: string) => CrossCutScope): CheckResult[] {
  const targets = [...new Set(checks.map((c) => c.target))];
  return [...checks, ...targets.flatMap((target) => crossCuttingResults(target, checks.filter((c) => c.target === target), scopeOf(target)))];
}

/** A profile's scope: its base URL and the intermediary it declares. */
export function scopeOfProfile(profile: { baseUrl?: string; http?: { intermediary?: CrossCutScope['intermediary'] } }): CrossCutScope {
  return { baseUrl: profile.baseUrl, ...(profile.http?.intermediary ? { intermediary: profile.http.intermediary } : {}) };
}
