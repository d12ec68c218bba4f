// Playwright fixtures that give every check its profile, a recording HTTP
// client, the verdict API and a shared access token, and that turn what the
// check did into one CheckOutcome attached to the test for the reporter.
import { test as base, type TestInfo } from '@playwright/test';
import type { ResolvedProfile } from '../config/profile.ts';
import { createTransport, HttpClient, type TransportSettings } from '../http/client.ts';
import { connectionOf, secretRedactor, type Connection } from '../http/connection.ts';
import type { Redactor } from '../http/redact.ts';
import { AccessTokenCache } from '../auth/tokens.ts';
import { PtasError } from '../errors.ts';
import { CheckContext } from './context.ts';
import { META_ANNOTATION, OUTCOME_ATTACHMENT, violationVerdict, worstVerdict, type CheckMeta, type CheckOutcome, type Verdict } from './model.ts';
import { verdictBasis } from './basis.ts';

export interface WorkerFixtures {
  /** Set per Playwright project by playwright.config.ts from PTAS_TARGETS_FILE. */
  ptasProfile: ResolvedProfile | undefined;
  profile: ResolvedProfile;
  /** How the worker's requests reach the target, from the profile (src/http/connection.ts). */
  connection: Connection;
  transport: TransportSettings;
  redactor: Redactor;
  tokens: AccessTokenCache;
}

export interface TestFixtures {
  check: CheckContext;
  http: HttpClient;
  checkOutcome: void;
}

function metaOf(testInfo: TestInfo): CheckMeta | undefined {
  const annotation = testInfo.annotations.find((a) => a.type === META_ANNOTATION);
  return annotation?.description ? (JSON.parse(annotation.description) as CheckMeta) : undefined;
}

function firstLine(text: string | undefined): string {
  return (text ?? '').split('\n').find((line) => line.trim())?.trim() ?? 'unknown error';
}

/** Folds what happened during the test into one verdict with a reason. */
export function outcomeOf(check: CheckContext, testInfo: TestInfo, meta: Pick<CheckMeta, 'severity' | 'requirements'>, error: unknown): CheckOutcome {
  const { severity, requirements } = meta;
  const base = { findings: check.findings, evidence: check.evidence, timeline: check.timeline };
  if (check.skipped || testInfo.status === 'skipped') {
    const skip = testInfo.annotations.find((a) => a.type === 'skip')?.description;
    const configKey = check.skipped?.configKey;
    return { ...base, verdict: 'SKIP', reason: check.skipped?.reason ?? skip ?? 'skipped', ...(configKey ? { configKey } : {}) };
  }
  if (check.failure) {
    const { reason, details, declaredBy } = check.failure;
    return { ...base, verdict: violationVerdict(severity, declaredBy), reason, details, basis: verdictBasis(requirements, declaredBy) };
  }
  if (testInfo.status === 'timedOut') {
    return { ...base, verdict: 'ERROR', reason: `the check did not finish within its ${testInfo.timeout} ms time limit` };
  }
  if (error !== undefined || testInfo.status === 'failed' || testInfo.error) {
    // An expected error (src/errors.ts) may word its own reason (TransportError, TokenSetupError); else its first line says why.
    const own = error instanceof PtasError ? error.checkReason() : undefined;
    const reason = own ?? `the check could not run: ${firstLine(error instanceof Error ? error.message : testInfo.error?.message)}`;
    return { ...base, verdict: 'ERROR', reason };
  }
  const levels = check.findings.map((f): Verdict => (f.level === 'WARN' ? 'WARN' : f.level === 'REVIEW' ? 'REVIEW' : 'PASS'));
  const verdict = worstVerdict(levels);
  const reason = check.findings.find((f) => f.level === verdict)?.message;
  return { ...base, verdict, reason };
}

/** Errors a check body threw, kept per test so teardown can classify them (testInfo only has their text). */
export const thrownByTest = new WeakMap<TestInfo, unknown>();

export const test = base.extend<TestFixtures, WorkerFixtures>({
  ptasProfile: [undefined, { option: true, scope: 'worker' }],

  profile: [
    async ({ ptasProfile }, use) => {
      if (!ptasProfile) throw new Error('no target profile: run the checks through `ptas run` (PTAS_TARGETS_FILE is not set)');
      await use(ptasProfile);
    },
    { scope: 'worker' },
  ],

  connection: [
    async ({ profile }, use) => {
      await use(connectionOf(profile));
    },
    { scope: 'worker' },
  ],

  transport: [
    async ({ connection }, use) => {
      const transport = createTransport(connection);
      await use(transport);
      await transport.dispatcher.close();
    },
    { scope: 'worker' },
  ],

  redactor: [
    async ({ connection }, use) => {
      await use(secretRedactor(connection));
    },
    { scope: 'worker' },
  ],

  tokens: [
    async ({ profile, connection, transport, redactor }, use) => {
      await use(new AccessTokenCache(HttpClient.to(connection, { transport, redactor }), profile));
    },
    { scope: 'worker' },
  ],

  check: async ({ redactor }, use) => {
    const check = new CheckContext(redactor);
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
