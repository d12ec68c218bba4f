// The report of a merged run with a FLAKY check in a real browser (Debian's
// Chromium, as browser.test.ts): the page draws without an error, the FLAKY
// check shows its attempts with the decisive one marked and the failing
// attempt's evidence, the FLAKY filter shows it alone, and "Open failing"
// opens it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from '@playwright/test';
import { writeReport } from '../../reports/write.ts';
import { launchChromium } from './support/browser.ts';
import { flakyRun } from '../support/attempt-fixtures.ts';
import { SINGLE_USE } from '../support/waiver-fixtures.ts';

let browser: Browser;
let scratch: string;

before(async () => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'ptas-flaky-browser-'));
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

test('in Chromium: a FLAKY check shows its attempts and the failing attempt\'s evidence; the FLAKY filter shows it alone', async () => {
  const report = writeReport(flakyRun(), path.join(scratch, 'report'));
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await page.goto(pathToFileURL(report.html).href);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });

  assert.equal(await page.textContent('#verdict'), 'NOT CONFORMANT');
  assert.equal(await page.textContent('#counts [data-verdict="FLAKY"] b'), '1');
  const row = page.locator(`details.check[id="check-${SINGLE_USE}"]`);
  assert.match((await row.locator('summary').textContent())!, /^FLAKYauth\.refresh-token-single-use/);
  // Flex items: innerText puts each on its own line.
  assert.equal(await row.locator('.check-attempts').innerText(), '2 attempts:\n#1 FAIL 2026-12-31 21:00:00 UTC (evidence below)\n#2 PASS 2026-12-31 23:30:00 UTC');
  assert.equal(await row.locator('.check-attempts .attempt.decisive .badge').textContent(), 'FAIL');
  assert.match((await row.locator('.check-attempts .attempt.decisive').getAttribute('title'))!, /^part 2\/2, run started 2026-12-31T21:00:00\.000Z, manifest sha256:1{64}\nrefresh token reused/);

  await page.click('.filter-bar .chip[data-verdict="FLAKY"]');
  assert.equal(await page.locator('details.check:not([hidden])').count(), 1);
  assert.equal(await page.locator(`details.check[id="check-${SINGLE_USE}"]:not([hidden])`).count(), 1);

  await page.click('#expand-failing');
  assert.equal(await row.evaluate((el) => (el as unknown as { open: boolean }).open), true, '"Open failing" opens a FLAKY check');
  await row.locator('.evidence').waitFor();
  assert.match(await row.innerText(), /second use of the refresh token/, 'the failing attempt\'s exchange');
  assert.doesNotMatch(await row.innerText(), /second use of the refresh token, re-run/, 'not the passing attempt\'s');

  assert.deepEqual(problems, []);
  await page.close();
});
