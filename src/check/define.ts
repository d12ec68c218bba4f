// defineCheck: one conformance check = one Playwright test per target that
// selects it (src/check/run-targets.ts), tagged with its requirement ids (so
// `--grep @TOKEN-REFRESH-SINGLE-USE` selects it), its area and its id, and
// annotated with its target. The check is registered first, once
// (src/check/registry.ts derives its area and severity from the catalogue);
// the test carries that metadata as an annotation, because the reporter runs
// in another process than the test files.
import type { TestInfo } from '@playwright/test';
import { CheckFailure, CheckSkip, type CheckContext } from './context.ts';
import { test, thrownByTest, type TestFixtures } from './fixtures.ts';
import { META_ANNOTATION, type CheckMeta } from './model.ts';
import { registerCheck, type CheckDeclaration } from './registry.ts';
import { TARGET_ANNOTATION, targetSelects, targetsFromEnv, type RunTarget } from './run-targets.ts';
import type { ResolvedProfile } from '../config/profile.ts';

export type CheckFixtures = Omit<TestFixtures, 'checkOutcome'>;
export type CheckBody = (fixtures: CheckFixtures & { check: CheckContext }, testInfo: TestInfo) => Promise<void>;

export function checkTags(meta: CheckMeta): string[] {
  return [...meta.requirements.map((id) => `@${id}`), `@area:${meta.area}`, `@check:${meta.id}`];
}

/** Off while `ptas list` and the coverage test import the check files: outside Playwright's runner test() must not be called. */
let declaringTests = true;

let runTargets: RunTarget[] | undefined;
/** The run's targets, read once per process from the file `ptas run` names. */
function targets(): RunTarget[] {
  return (runTargets ??= targetsFromEnv());
}

/** Imports check files (inside `load`) so that they only register their checks, declaring no Playwright test. */
export async function registeringOnly<T>(load: () => Promise<T>): Promise<T> {
  declaringTests = false;
  try {
    return await load();
  } finally {
    declaringTests = true;
  }
}

/**
 * A conformance check's declaration. `waitsMs`: the longest the check may
 * wait on the implementation by what the profile declares (a poll deadline,
 * a validity period, a delivery window), added to its time limit so a slow
 * but declared implementation is never cut short, and a run stays bounded.
 */
export type ConformanceDeclaration = CheckDeclaration & { waitsMs?: (profile: ResolvedProfile) => number };

/** Declares one check: its id, title and requirement ids, and the body that exercises the implementation. */
export function defineCheck(declaration: ConformanceDeclaration, body: CheckBody): void {
  const { waitsMs, ...checkDeclaration } = declaration;
  const meta = registerCheck(checkDeclaration, 'conformance');
  if (!declaringTests) return;
  for (const target of targets()) declareTest(target, meta, body, waitsMs);
}

/** The check's test against one target, if the target's grep selects it. */
function declareTest(target: RunTarget, meta: CheckMeta, body: CheckBody, waitsMs: ConformanceDeclaration['waitsMs']): void {
  const tags = checkTags(meta);
  if (!targetSelects(target, meta.title, tags)) return;
  // The target's name keeps the titles of the same check for two targets apart.
  test.describe(target.name, () => declareTargetTest(target, meta, tags, body, waitsMs));
}

function declareTargetTest(target: RunTarget, meta: CheckMeta, tags: string[], body: CheckBody, waitsMs: ConformanceDeclaration['waitsMs']): void {
  const annotation = [
    { type: META_ANNOTATION, description: JSON.stringify(meta) },
    { type: TARGET_ANNOTATION, description: target.name },
  ];
  test(meta.title, { tag: tags, annotation }, async ({ check, http, targetName, profile, connection, transport, redactor, tokens }, testInfo) => {
    const declaredWaits = waitsMs?.(profile) ?? 0;
    if (declaredWaits > 0 && testInfo.timeout) testInfo.setTimeout(testInfo.timeout + declaredWaits);
    try {
      await body({ check, http, targetName, profile, connection, transport, redactor, tokens }, testInfo);
    } catch (error) {
      if (error instanceof CheckSkip) testInfo.skip(true, error.message);
      // The verdict is the outcome's (src/check/fixtures.ts: a violation is FAIL or WARN by severity, anything
      // else thrown is ERROR), never the test status: a failed test makes Playwright replace its worker.
      if (!(error instanceof CheckFailure)) thrownByTest.set(testInfo, error);
    }
  });
}
