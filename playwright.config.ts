// Playwright runs the conformance checks (suites/**/*.check.ts) against the
// targets `ptas run` hands over in PTAS_TARGETS_FILE: one project, each check
// declared once per target that selects it (src/check/define.ts), so that
// every worker serves every target. Run checks through `ptas run`, not
// `playwright test` directly.
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHECK_FILE_SUFFIX, CHECKS_DIR } from './app/run/check-files.ts';

const ORDERED_GROUP_FILES = '**/webhooks/*.check.ts';

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
  // The webhook checks run one after another per target (defineCheckGroup: the
  // receiving address is held once per client), the longest chain of a run:
  // as a project listed first they start at once instead of after the other
  // checks (a full run on 2 cores: 15.6 s → 12.4 s).
  projects: [
    { name: 'ordered-groups', testMatch: ORDERED_GROUP_FILES },
    { name: 'checks', testIgnore: ORDERED_GROUP_FILES },
  ],
});
