// Unstable checks in the console, in Chromium, on a real `ptas serve` whose
// store holds two runs of one implementation (same suite version, same
// profile hash) in which one check passed, then failed, and two runs of the
// bundled reference that differ the same way (seeded as a restored backup of
// bundles: test/serve/support/seeded-runs.ts). The implementation's page
// shows that check as unstable, the implementation's, with both runs'
// observations side by side (verdict, reason, basis, what the check said,
// its first exchange), and nothing for the check that kept its verdict; the
// bundled reference's page says its unstable check is a defect of the suite.
// Markup in what a run recorded stays text. No console error, no dialog, no
// Content-Security-Policy violation.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from '@playwright/test';
import { launchChromium } from '../report/support/browser.ts';
import { PASS_CLAIM, STEADY, UNSTABLE, UNSTABLE_REASON, unstableRun } from '../support/unstable-runs.ts';
import { startConsoleTestServer, type TestServer } from './support.ts';
import { cspViolations, signIn, watchedPage, type Watched } from './support/console-page.ts';
import { seedStore } from './support/seeded-runs.ts';

const ACME = 'Acme Payments';
const CLEAN = { faults: [], variants: [], conditions: [] };
/** What the failing run's check said, with markup that must stay text. */
const HOSTILE_CLAIM = '<img src=x onerror=alert(1)> a second refresh was accepted';

let data: string;
let lab: TestServer;
let browser: Browser;
let watched: Watched;

before(async () => {
  data = mkdtempSync(path.join(os.tmpdir(), 'ptas-serve-unstable-browser-'));
  const failing = unstableRun({ startedAt: '2027-01-02T21:00:00.000Z', verdict: 'FAIL', implementation: ACME });
  const check = failing.checks.find((c) => c.id === UNSTABLE)!;
  check.record!.claims.push({ level: 'INFO', message: HOSTILE_CLAIM });
  seedStore(
    data,
    [{ id: 'acme', name: ACME, profileText: '{"baseUrl": "https://sandbox.acme.example"}', createdAt: '2027-01-01T00:00:00.000Z', updatedAt: '2027-01-01T00:00:00.000Z' }],
    [
      { id: 'acme-pass', results: unstableRun({ startedAt: '2027-01-01T21:00:00.000Z', verdict: 'PASS', implementation: ACME }) },
      { id: 'acme-fail', results: failing },
      { id: 'reference-pass', results: unstableRun({ startedAt: '2027-01-01T21:00:00.000Z', verdict: 'PASS', reference: CLEAN, profileHash: 'sha256:aaaaaaaaaaaa' }) },
      { id: 'reference-fail', results: unstableRun({ startedAt: '2027-01-02T21:00:00.000Z', verdict: 'FAIL', reference: CLEAN, profileHash: 'sha256:bbbbbbbbbbbb' }) },
    ],
  );
  [lab, browser] = await Promise.all([startConsoleTestServer({ dataDir: data }), launchChromium()]);
  watched = await watchedPage(browser);
});

after(async () => {
  await browser?.close();
  await lab?.close();
  rmSync(data, { recursive: true, force: true });
});

test('two runs of one implementation, one check’s verdict differing: the implementation’s page shows that check unstable, both observations side by side', async () => {
  const { page } = watched;
  await signIn(page, lab.url, lab.token, '/console/implementations/acme');
  const unstable = page.locator('#unstable-checks .unstable-check');
  await unstable.first().waitFor();
  assert.equal(await unstable.count(), 1, 'one unstable check');
  assert.equal(await page.locator(`#unstable-checks [data-check-id="${STEADY}"]`).count(), 0, 'the check that kept its verdict is not shown');
  const card = page.locator(`#unstable-checks .unstable-check[data-check-id="${UNSTABLE}"]`);
  assert.equal(await card.getAttribute('data-attribution'), 'implementation');
  assert.match(await card.locator('h3').innerText(), /UNSTABLE\s+A refresh token is single-use\s+auth\.refresh-token-single-use/);
  assert.equal(await card.locator('.attribution').innerText(), "Whose: the implementation's: it answered differently to the same checks.");
  assert.match(await card.innerText(), /FAIL 1×, PASS 1× over the runs of ptas 0\.1\.0, profile sha256:0123456789ab\./);

  const before = card.locator('.observation[data-run="acme-pass"]');
  const latest = card.locator('.observation[data-run="acme-fail"]');
  assert.match(await before.locator('h4').innerText(), /^Before: acme-pas .* PASS$/);
  assert.match(await latest.locator('h4').innerText(), /^Latest: acme-fai .* FAIL$/);
  assert.equal(await latest.locator('.reason').innerText(), UNSTABLE_REASON);
  assert.match(await latest.locator('.basis').innerText(), /^Rests on spec 4\.1 rule 2, 5 rule 2: "It is exchanged with client_id for a new access token, and each refresh token is single-use\."$/);
  assert.deepEqual(await latest.locator('.claims li').allInnerTexts(), [`FAIL ${UNSTABLE_REASON}`, `INFO ${HOSTILE_CLAIM}`], 'markup a run recorded stays text');
  assert.equal(await page.locator('#unstable-checks img').count(), 0);
  assert.deepEqual(await before.locator('.claims li').allInnerTexts(), [`INFO ${PASS_CLAIM}`]);
  assert.match(await before.locator('.evidence').innerText(), /refresh with the used refresh token: POST https:\/\/sandbox\.acme\.example\/v1\/oauth\/token → 400/);
  assert.match(await latest.locator('.evidence').innerText(), /→ 200/);
  // Side by side: one row, the earlier run on the left.
  const [left, right] = [(await before.boundingBox())!, (await latest.boundingBox())!];
  assert.equal(left.y, right.y, 'the two observations start on one line');
  assert.ok(left.x + left.width <= right.x, 'the earlier run on the left, the latest on the right');

  // A run's link leads to its page.
  await before.locator('h4 a').click();
  await page.waitForURL(/\/console\/runs\/acme-pass$/);
});

test('on the bundled reference’s page, the unstable check is said to be a defect of the suite', async () => {
  const { page } = watched;
  await page.goto(`${lab.url}/console/implementations/reference`);
  const card = page.locator(`#unstable-checks .unstable-check[data-check-id="${UNSTABLE}"]`);
  await card.waitFor();
  assert.equal(await card.getAttribute('data-attribution'), 'suite');
  assert.equal(await card.locator('.attribution').innerText(), 'Whose: the bundled reference: a defect of the suite (a check must give one verdict on one implementation).');
  assert.match(await card.innerText(), /over the runs of ptas 0\.1\.0, the bundled reference \(faults: none; variants: none; conditions: none\)\./);
});

test('nothing went wrong on the way: no console error, no dialog, no policy violation', async () => {
  assert.deepEqual(watched.problems, []);
  assert.deepEqual(watched.dialogs, []);
  assert.deepEqual(await cspViolations(watched.page), []);
});
