// Playwright fixtures that give every check its profile, a recording HTTP
// client, the verdict API and a shared access token, and that turn what the
// check did into one CheckOutcome attached to the test for the reporter.
import { test as base, type TestInfo } from '@playwright/test';
import { HttpClient } from '../http/client.ts';
import { PtasError } from '../errors.ts';
import { CheckContext } from './context.ts';
import { META_ANNOTATION, OUTCOME_ATTACHMENT, type CheckMeta, type CheckOutcome } from './model.ts';
import { decideOutcome } from './outcome.ts';
import { TARGET_ANNOTATION } from './run-targets.ts';
import { TargetResourcePool, type TargetResources } from './target-resources.ts';

export interface WorkerFixtures {
  /** Each target's name, profile, connection, pool, redactor and token cache, made for the first check of the target this worker runs. */
  targetResources: TargetResourcePool;
}

/** What a check is given for the target its test runs against (the test's TARGET_ANNOTATION). */
export interface TestFixtures extends TargetResources {
  check: CheckContext;
  http: HttpClient;
  checkOutcome: void;
}

function metaOf(testInfo: TestInfo): CheckMeta | undefined {
  const annotation = testInfo.annotations.find((a) => a.type === META_ANNOTATION);
  return annotation?.description ? (JSON.parse(annotation.description) as CheckMeta) : undefined;
}

function targetOf(testInfo: TestInfo): string {
  const target = testInfo.annotations.find((a) => a.type === TARGET_ANNOTATION)?.description;
  if (!target) throw new Error('the test names no target: declare checks with defineCheck (src/check/define.ts)');
  return target;
}

function firstLine(text: string | undefined): string {
  return (text ?? '').split('\n').find((line) => line.trim())?.trim() ?? 'unknown error';
}

/** Why the test did not run to its end, if it did not: its time limit, or an error it threw (not a check's own control flow). */
function stoppedBy(testInfo: TestInfo, error: unknown): string | undefined {
  if (testInfo.status === 'timedOut') return `the check did not finish within its ${testInfo.timeout} ms time limit`;
  if (error === undefined && testInfo.status !== 'failed' && !testInfo.error) return undefined;
  // An expected error (src/errors.ts) may word its own reason (TransportError, TokenSetupError); else its first line says why.
  const own = error instanceof PtasError ? error.checkReason() : undefined;
  return own ?? `the check could not run: ${firstLine(error instanceof Error ? error.message : testInfo.error?.message)}`;
}

/** What happened during the test, decided into one verdict by the one outcome function (src/check/outcome.ts). */
export function outcomeOf(check: CheckContext, testInfo: TestInfo, meta: Pick<CheckMeta, 'severity' | 'requirements'>, error: unknown): CheckOutcome {
  const skipNote = testInfo.status === 'skipped' ? testInfo.annotations.find((a) => a.type === 'skip')?.description : undefined;
  const skipped = check.skipped ?? (testInfo.status === 'skipped' ? { reason: skipNote ?? 'skipped' } : undefined);
  const decided = decideOutcome({ severity: meta.severity, claims: check.claims, skipped, stoppedBy: stoppedBy(testInfo, error) });
  return { ...decided, evidence: check.evidence, timeline: check.timeline };
}

/** Errors a check body threw, kept per test so teardown can classify them (testInfo only has their text). */
export const thrownByTest = new WeakMap<TestInfo, unknown>();

export const test = base.extend<TestFixtures, WorkerFixtures>({
  targetResources: [
    async ({}, use) => {
      const pool = new TargetResourcePool();
      await use(pool);
      await pool.close();
    },
    { scope: 'worker' },
  ],

  targetName: async ({ targetResources }, use, testInfo) => use(targetResources.of(targetOf(testInfo)).targetName),
  profile: async ({ targetResources }, use, testInfo) => use(targetResources.of(targetOf(testInfo)).profile),
  connection: async ({ targetResources }, use, testInfo) => use(targetResources.of(targetOf(testInfo)).connection),
  transport: async ({ targetResources }, use, testInfo) => use(targetResources.of(targetOf(testInfo)).transport),
  redactor: async ({ targetResources }, use, testInfo) => use(targetResources.of(targetOf(testInfo)).redactor),
  tokens: async ({ targetResources }, use, testInfo) => use(targetResources.of(targetOf(testInfo)).tokens),

  check: async ({ redactor, profile }, use, testInfo) => {
    const check = new CheckContext(redactor, { requirements: metaOf(testInfo)?.requirements, profile });
    try {
      await use(check);
    } finally {
      await check.runEndHooks();
    }
  },

  http: async ({ connection, transport, redactor, check }, use) => {
    await use(HttpClient.to(connection, { transport, redactor, recorder: check }));
  },

  checkOutcome: [
    async ({ check }, use, testInfo) => {
      await use();
      const meta = metaOf(testInfo);
      if (!meta) return;
      const outcome = outcomeOf(check, testInfo, meta, thrownByTest.get(testInfo));
      await testInfo.attach(OUTCOME_ATTACHMENT, { body: JSON.stringify(outcome), contentType: 'application/json' });
    },
    { auto: true },
  ],
});
