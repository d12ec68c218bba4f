// defineCheck: one conformance check = one Playwright test per target that
// selects it (runner/run-targets.ts), tagged with its requirement ids (so
// `--grep @TOKEN-REFRESH-SINGLE-USE` selects it), its area and its id, and
// annotated with its target. The check is registered first, once
// (src/check/registry.ts derives its area and severity from the catalogue);
// the test carries that metadata as an annotation, because the reporter runs
// in another process than the test files.
//
// The tests are declared once every check file is imported
// (runner/declare-tests.ts, from the spec files runner/spec-files.ts
// writes), in the order of the waits their targets' profiles declare,
// longest first: Playwright starts tests in declaration order, so a 65 s
// poll or a slow webhook window starts at once instead of after hundreds of
// short checks.
// This module does not load Playwright: `ptas run`, `ptas serve`, `ptas
// verify` and `ptas list` import every check file to know the checks, and
// Playwright's modules cost each of them about half a second of CPU.
import type { CheckBody } from './fixtures.ts';
import type { CheckMeta } from '../src/check/model.ts';
import { registerCheck, type CheckDeclaration } from '../src/check/registry.ts';
import type { ResolvedProfile } from '../src/config/profile.ts';
import { targetSelects, type RunTarget } from './run-targets.ts';
import { readRunSettings } from './settings.ts';

export type { CheckBody, CheckFixtures } from './fixtures.ts';

export function checkTags(meta: CheckMeta): string[] {
  return [...meta.requirements.map((id) => `@${id}`), `@area:${meta.area}`, `@check:${meta.id}`];
}

/** A check's test title against one target: the target's name keeps the tests of one check against two targets apart. */
export function testTitle(meta: Pick<CheckMeta, 'title'>, target: Pick<RunTarget, 'name'>): string {
  return `${meta.title} [${target.name}]`;
}

/** Off while `ptas list` and the coverage test import the check files: outside Playwright's runner test() must not be called. */
let declaringTests = true;

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

/** A check's test against one target, waiting to be declared. */
export interface PendingTest {
  target: RunTarget;
  meta: CheckMeta;
  tags: string[];
  body: CheckBody;
  declaredWaitsMs: number;
}

const pending: PendingTest[] = [];

/** Declares one check: its id, title and requirement ids, and the body that exercises the implementation. */
export function defineCheck(declaration: ConformanceDeclaration, body: CheckBody): void {
  const { waitsMs, ...checkDeclaration } = declaration;
  const meta = registerCheck(checkDeclaration, 'conformance');
  if (!declaringTests) return;
  const tags = checkTags(meta);
  for (const target of readRunSettings().targets) {
    if (targetSelects(target, meta.title, tags)) pending.push({ target, meta, tags, body, declaredWaitsMs: waitsMs?.(target.profile) ?? 0 });
  }
}

/** Every check's tests against every target, the longest declared waits first (in definition order among equals). */
let ordered: PendingTest[] | undefined;
export function orderedTests(): PendingTest[] {
  if (!ordered) {
    const indexed = pending.splice(0).map((spec, i) => ({ spec, i }));
    indexed.sort((a, b) => b.spec.declaredWaitsMs - a.spec.declaredWaitsMs || a.i - b.i);
    ordered = indexed.map(({ spec }) => spec);
  }
  return ordered;
}
