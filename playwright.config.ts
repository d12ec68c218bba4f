// Playwright runs the conformance checks (suites/**/*.check.ts) against the
// targets `ptas run` hands over in PTAS_TARGETS_FILE: one project, each check
// declared once per target that selects it (src/check/define.ts), so that
// every worker serves every target, the longest declared waits first, from
// the spec files the run writes into PTAS_SPEC_DIR (app/run/spec-files.ts).
// Run checks through `ptas run`, not `playwright test` directly.
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { SPEC_DIR_ENV, SPEC_FILE_SUFFIX } from './app/run/spec-files.ts';

export default defineConfig({
  testDir: process.env[SPEC_DIR_ENV] ?? path.join(os.tmpdir(), 'ptas-no-specs'),
  testMatch: `*${SPEC_FILE_SUFFIX}`,
  fullyParallel: true,
  forbidOnly: true,
  retries: 0,
  workers: Number(process.env.PTAS_WORKERS ?? 2),
  timeout: Number(process.env.PTAS_CHECK_TIMEOUT_MS ?? 60_000),
  reporter: [['./reports/playwright-reporter.ts']],
  outputDir: process.env.PTAS_PLAYWRIGHT_OUTPUT ?? path.join(os.tmpdir(), 'ptas-playwright'),
  // The run's webhook receivers, one per target, shared by every worker (src/webhooks/hub.ts).
  globalSetup: './src/check/webhook-hub-setup.ts',
});
