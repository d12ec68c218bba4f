// Debian's Chromium driven by Playwright's library API, for the report's
// browser test and benchmark. Never a downloaded browser: CI installs the
// distribution's chromium with apt-get (.ci/run).
import { chromium, type Browser } from '@playwright/test';

export const CHROMIUM_PATH = process.env.PTAS_CHROMIUM ?? '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
}
