// Playwright runs the conformance checks against the targets of the run's
// settings (runner/settings.ts, written by `ptas run` or the self-test): one
// project, each check declared once per target that selects it
// (runner/define.ts), so that every worker serves every target, the longest
// declared waits first, from the spec files the run writes
// (runner/spec-files.ts). Run checks through `ptas run`, not `playwright test`.
import { defineConfig } from '@playwright/test';
import { readRunSettings } from './settings.ts';
import { SPEC_FILE_SUFFIX } from './spec-files.ts';

const settings = readRunSettings();

export default defineConfig({
  testDir: settings.paths.specs,
  testMatch: `*${SPEC_FILE_SUFFIX}`,
  fullyParallel: true,
  forbidOnly: true,
  retries: 0,
  workers: settings.workers,
  timeout: settings.checkTimeoutMs,
  reporter: [['./collector.ts']],
  outputDir: settings.paths.playwrightOutput,
  // The run's webhook receivers, one per target, shared by every worker (runner/webhook-hub/hub.ts).
  globalSetup: './webhook-hub/setup.ts',
});
