// Declares the Playwright tests of the checks the check files defined
// (runner/define.ts), inside Playwright's runner and workers only: the
// one part of defining checks that needs Playwright's test().
import type { TestInfo } from '@playwright/test';
import { recordOutcome, runCheck, test } from './fixtures.ts';
import { orderedTests, testTitle, type PendingTest } from './define.ts';
import { META_ANNOTATION, TARGET_ANNOTATION } from './annotations.ts';

/**
 * Declares one of `chunks` contiguous slices of the tests of every check
 * defined so far (runner/spec-files.ts writes one spec file per slice: a
 * Playwright worker clones and re-hashes a test's whole file before each
 * test, so thousands of tests in one file cost far more than the checks),
 * and the hook that records each outcome.
 */
export function declareCheckTests(chunk = 0, chunks = 1): void {
  const all = orderedTests();
  const slice = all.slice(Math.floor((chunk * all.length) / chunks), Math.floor(((chunk + 1) * all.length) / chunks));
  for (const spec of slice) declareTargetTest(spec);
  test.afterEach(async ({}, testInfo) => recordOutcome(testInfo));
}

function declareTargetTest({ target, meta, tags, body, declaredWaitsMs }: PendingTest): void {
  const annotation = [
    { type: META_ANNOTATION, description: JSON.stringify(meta) },
    { type: TARGET_ANNOTATION, description: target.name },
  ];
  // The target in the title, not a describe block per test: that would cost Playwright another captured stack per test, in every worker.
  test(testTitle(meta, target), { tag: tags, annotation }, async ({ targetResources }, testInfo: TestInfo) => {
    if (declaredWaitsMs > 0 && testInfo.timeout) testInfo.setTimeout(testInfo.timeout + declaredWaitsMs);
    await runCheck(targetResources.of(target.name), meta, body, testInfo);
  });
}
