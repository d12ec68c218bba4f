// The report of a run with waivers in a real browser (Debian's Chromium, as
// browser.test.ts): the page draws without an error, a WAIVED check shows the
// verdict it gave, its reason and its waiver, the WAIVED filter works, and the
// tracking link is the only address outside the page, never requested.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from '@playwright/test';
import { applyWaivers } from '../../src/results/waivers.ts';
import { writeReport } from '../../reports/write.ts';
import { launchChromium } from './support/browser.ts';
import { LAST_VALID_INSTANT, run, SINGLE_USE, SINGLE_USE_REASON, waiverFile } from '../support/waiver-fixtures.ts';

let browser: Browser;
let scratch: string;

before(async () => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'ptas-waivers-browser-'));
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

test('in Chromium: a WAIVED check shows the verdict it gave, its reason and its waiver; the WAIVED filter shows it alone', async () => {
  const results = applyWaivers(run(), waiverFile({ check: SINGLE_USE, owner: 'payments-api team' }, { check: 'users.no-such-check' }), { strict: true, now: LAST_VALID_INSTANT });
  assert.equal(results.verdict, 'INCOMPLETE', 'strict, with an unmatched waiver');
  const report = writeReport(results, path.join(scratch, 'report'));
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const problems: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(pathToFileURL(report.html).href);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });

  assert.equal(await page.textContent('#verdict'), 'INCOMPLETE');
  assert.match((await page.textContent('.verdict-why'))!, /1 waiver no longer matches this run .* --strict-waivers is on/);
  const row = page.locator(`details.check[id="check-${SINGLE_USE}"]`);
  const summary = (await row.locator('summary').textContent())!;
  assert.match(summary, /^WAIVEDgave FAILauth\.refresh-token-single-use/);
  assert.ok(summary.includes(SINGLE_USE_REASON), 'the reason the check gave');
  assert.match(await row.locator('.check-waived').innerText(), /waived \(FAIL expected by check waiver \/waivers\/0\): single-use refresh tokens ship in release 4\.2 — payments-api team, valid through 2026-12-31 UTC, https:\/\/tracker\.example\.com\/PAY-1234/);
  assert.equal(await row.locator('.check-waived a.tracking').getAttribute('href'), 'https://tracker.example.com/PAY-1234');
  assert.equal(await page.textContent('#counts [data-verdict="WAIVED"] b'), '1');

  await page.click('.filter-bar .chip[data-verdict="WAIVED"]');
  assert.equal(await page.locator('details.check:not([hidden])').count(), 1);
  assert.equal(await page.locator(`details.check[id="check-${SINGLE_USE}"]:not([hidden])`).count(), 1);

  assert.equal(await page.locator('#waivers tr.waiver').count(), 2);
  assert.equal(await page.locator('#waivers tr.waiver[data-status="unmatched"]').count(), 1);
  await page.click(`#waivers a[href="#check-${SINGLE_USE}"]`);
  // The page opens the check on hashchange, which the browser fires after the click returns.
  const opened = await page.waitForSelector(`details.check[id="check-${SINGLE_USE}"][open]`, { timeout: 5_000 }).then(() => true, () => false);
  assert.equal(opened, true, 'the link from the waiver opens the check');

  assert.deepEqual(problems, []);
  assert.deepEqual(requests.filter((url) => !url.startsWith('file:')), [], 'nothing requested outside the page');
  await page.close();
});
