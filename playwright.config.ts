// Playwright runs the conformance checks (suites/**/*.check.ts) against the
// targets `ptas run` hands over in PTAS_TARGETS_FILE: one project, each check
// declared once per target that selects it (src/check/define.ts), so that
// every worker serves every target. Run checks through `ptas run`, not
// `playwright test` directly.
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHECK_FILE_SUFFIX, CHECKS_DIR } from './app/run/check-files.ts';

const WEBHOOK_CHECK_FILES = '**/webhooks/*.check.ts';

export default defineConfig({
  testDir: CHECKS_DIR,
  testMatch: `**/*${CHECK_FILE_SUFFIX}`,
  fullyParallel: true,
  forbidOnly: true,
  retries: 0,
  workers: Number(process.env.PTAS_WORKERS ?? 2),
  timeout: Number(process.env.PTAS_CHECK_TIMEOUT_MS ?? 60_000),
  reporter: [['./reports/playwright-reporter.ts']],
  outputDir: process.env.PTAS_PLAYWRIGHT_OUTPUT ?? path.join(os.tmpdir(), 'ptas-playwright'),
  // The run's webhook receivers, one per target, shared by every worker (src/webhooks/hub.ts).
  globalSetup: './src/check/webhook-hub-setup.ts',
  // The webhook checks spend most of their time waiting out observation
  // windows, and wait for each other when the profile has fewer users than
  // workers: as a project listed first they start at once.
  projects: [
    { name: 'webhooks', testMatch: WEBHOOK_CHECK_FILES },
    { name: 'checks', testIgnore: WEBHOOK_CHECK_FILES },
  ],
});
