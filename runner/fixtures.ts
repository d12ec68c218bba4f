// How one check runs inside a Playwright worker. A worker fixture holds each
// target's resources (profile, connection, pool, redactor, token cache); the
// test body builds the check's context and recording client from them and
// runs the check; an after-each hook — which Playwright runs after a time-out
// too — decides the outcome and adds it to the test's annotations for the
// collector.
// Nothing else is a Playwright fixture: every fixture a test uses is a
// step Playwright records with a captured stack, which across a self-test's
// thousands of tests cost more CPU than the checks themselves. For the same
// reason the test type is Playwright's base one, without the browser
// fixtures of `test` (trace recording, context options: auto fixtures that
// load the browser library in every worker and add steps to every test);
// checks drive HTTP, never a browser.
import { _baseTest as base, type TestInfo } from '@playwright/test';
import { HttpClient } from '../src/http/client.ts';
import { PtasError } from '../src/errors.ts';
import { CheckContext, CheckFailure, CheckSkip } from '../src/check/context.ts';
import type { CheckMeta, CheckOutcome } from '../src/check/model.ts';
import { outcomeOfRecord } from '../src/check/record.ts';
import { OUTCOME_ANNOTATION } from './annotations.ts';
import { TargetResourcePool, type TargetResources } from './target-resources.ts';
import { releaseWorkerStartSlot } from './worker-start.ts';

export interface WorkerFixtures {
  /** Each target's name, profile, connection, pool, redactor and token cache, made for the first check of the target this worker runs. */
  targetResources: TargetResourcePool;
}

/** What a check body is given for the target its test runs against. */
export interface CheckFixtures extends TargetResources {
  check: CheckContext;
  http: HttpClient;
}

/** A check's body: it sees its target's resources, its context and its client, never the test that runs it. */
export type CheckBody = (fixtures: CheckFixtures) => Promise<void>;

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

/** What happened during the test as the check's record, judged into one verdict (src/check/record.ts, by the one outcome function). */
export function outcomeOf(check: CheckContext, testInfo: TestInfo, meta: Pick<CheckMeta, 'severity' | 'requirements'>, error: unknown): CheckOutcome {
  const skipNote = testInfo.status === 'skipped' ? testInfo.annotations.find((a) => a.type === 'skip')?.description : undefined;
  const skipped = check.skipped ?? (testInfo.status === 'skipped' ? { reason: skipNote ?? 'skipped' } : undefined);
  const interrupted = testInfo.status === 'interrupted' ? 'the run was stopped before the check finished: what it observed so far decides nothing' : undefined;
  const stopped = interrupted ? undefined : stoppedBy(testInfo, error);
  const record = {
    claims: check.entries,
    ...(skipped ? { skipped } : {}),
    ...(stopped !== undefined ? { stoppedBy: stopped } : {}),
    ...(interrupted ? { interrupted } : {}),
  };
  return outcomeOfRecord(meta, record, check);
}

/** A check between its test body and the after-each hook that records its outcome. */
interface CheckRun {
  meta: CheckMeta;
  check: CheckContext;
  /** What the body threw, other than a check's own control flow (CheckFailure, CheckSkip). */
  thrown?: unknown;
}

/** By test id: the after-each hook finds the run even when the body is still pending after a time-out. */
const runs = new Map<string, CheckRun>();

export const test = base.extend<object, WorkerFixtures>({
  targetResources: [
    async ({}, use) => {
      const pool = new TargetResourcePool();
      // Loaded and about to run its first check: the next worker may start (runner/worker-start-gate.mjs).
      releaseWorkerStartSlot();
      await use(pool);
      await pool.close();
    },
    { scope: 'worker' },
  ],
});

/** The check's test body: its context and client for the target, then the check itself. */
export async function runCheck(resources: TargetResources, meta: CheckMeta, body: CheckBody, testInfo: TestInfo): Promise<void> {
  const check = new CheckContext(resources.redactor, { requirements: meta.requirements, profile: resources.profile });
  const run: CheckRun = { meta, check };
  runs.set(testInfo.testId, run);
  const http = HttpClient.to(resources.connection, { transport: resources.transport, redactor: resources.redactor, recorder: check });
  try {
    await body({ ...resources, check, http });
  } catch (error) {
    if (error instanceof CheckSkip) testInfo.skip(true, error.message);
    // The verdict is the outcome's (a claim's, or ERROR for anything else thrown), never the test status:
    // a failed test makes Playwright replace its worker.
    if (!(error instanceof CheckFailure)) run.thrown = error;
  }
}

/** The after-each hook: ends the check (its end hooks: locks, sessions) and records its outcome as an annotation (runner/annotations.ts). */
export async function recordOutcome(testInfo: TestInfo): Promise<void> {
  const run = runs.get(testInfo.testId);
  if (!run) return;
  runs.delete(testInfo.testId);
  try {
    await run.check.runEndHooks();
  } finally {
    const outcome = outcomeOf(run.check, testInfo, run.meta, run.thrown);
    testInfo.annotations.push({ type: OUTCOME_ANNOTATION, description: JSON.stringify(outcome) });
  }
}
