// defineCheck: one conformance check = one Playwright test, tagged with its
// requirement ids (so `--grep @TOKEN-REFRESH-SINGLE-USE` selects it), its area
// and its id. The check is registered first (src/check/registry.ts derives its
// area and severity from the catalogue); the test carries that metadata as an
// annotation, because the reporter runs in another process than the test files.
import type { TestInfo } from '@playwright/test';
import { CheckFailure, CheckSkip, type CheckContext } from './context.ts';
import { test, thrownByTest, type TestFixtures, type WorkerFixtures } from './fixtures.ts';
import { META_ANNOTATION, type CheckMeta } from './model.ts';
import { registerCheck, type CheckDeclaration } from './registry.ts';

export type CheckFixtures = Omit<TestFixtures, 'checkOutcome'> & Omit<WorkerFixtures, 'ptasProfile'>;
export type CheckBody = (fixtures: CheckFixtures & { check: CheckContext }, testInfo: TestInfo) => Promise<void>;

export function checkTags(meta: CheckMeta): string[] {
  return [...meta.requirements.map((id) => `@${id}`), `@area:${meta.area}`, `@check:${meta.id}`];
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

/** Declares one check: its id, title and requirement ids, and the body that exercises the implementation. */
export function defineCheck(declaration: CheckDeclaration, body: CheckBody): void {
  const meta = registerCheck(declaration, 'conformance');
  if (declaringTests) declareTest(meta, body);
}

function declareTest(meta: CheckMeta, body: CheckBody): void {
  test(
    meta.title,
    { tag: checkTags(meta), annotation: { type: META_ANNOTATION, description: JSON.stringify(meta) } },
    async ({ check, http, profile, connection, transport, redactor, tokens }, testInfo) => {
      try {
        await body({ check, http, profile, connection, transport, redactor, tokens }, testInfo);
      } catch (error) {
        if (error instanceof CheckSkip) testInfo.skip(true, error.message);
        // A violated SHOULD or REVIEW expectation is a WARN, not a test failure.
        if (error instanceof CheckFailure && meta.severity !== 'MUST') return;
        thrownByTest.set(testInfo, error);
        throw error;
      }
    },
  );
}

/**
 * Declares checks that run one after another in one worker, in the order
 * declared, because they share something the implementation holds once per
 * client (the webhook receiving address): in parallel workers they would
 * take each other's deliveries. Unlike Playwright's serial mode, a failing
 * check does not skip the rest. `afterAll` releases what the group shared.
 */
export function defineCheckGroup(title: string, declare: () => void, hooks: { afterAll?: () => Promise<void> } = {}): void {
  if (!declaringTests) return declare();
  test.describe(title, () => {
    test.describe.configure({ mode: 'default' });
    if (hooks.afterAll) test.afterAll(hooks.afterAll);
    declare();
  });
}
