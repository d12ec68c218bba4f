// "Re-judge stored runs with this version" in the console, in Chromium, on a
// real `ptas serve` whose store holds runs of the test's choosing (seeded as
// a restored backup of bundles: test/serve/support/seeded-runs.ts): reached
// from the console's navigation, the page lists the run whose verdict the
// installed suite changes, and opens onto its flipped check with the
// verdict, reason and basis before and after; the run judged by an older
// suite shows its flipped check, and the checks it never ran, as new in
// 0.1.0; the run where only a basis changes comes after them; the unchanged
// run is a count. Markup in what a run recorded stays text. No console
// error, no dialog, no Content-Security-Policy violation.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from '@playwright/test';
import { launchChromium } from '../report/support/browser.ts';
import { FLIPPED, storedRun } from '../support/rejudge-runs.ts';
import { startConsoleTestServer, type TestServer } from './support.ts';
import { cspViolations, signIn, watchedPage, type Watched } from './support/console-page.ts';
import { seedStore } from './support/seeded-runs.ts';

const ACME = 'Acme Payments';
/** What the flipped run's check said, with markup that must stay text. */
const HOSTILE_REASON = '<img src=x onerror=alert(1)> a used refresh token was accepted';

let data: string;
let lab: TestServer;
let browser: Browser;
let watched: Watched;

before(async () => {
  data = mkdtempSync(path.join(os.tmpdir(), 'ptas-serve-rejudge-browser-'));
  const flipped = storedRun({ startedAt: '2027-01-03T21:00:00.000Z', implementation: ACME, flipped: 'warn-over-fail' });
  const check = flipped.checks.find((c) => c.id === FLIPPED)!;
  check.reason = HOSTILE_REASON;
  check.record = { claims: [{ level: 'FAIL', message: HOSTILE_REASON, rests: { kind: 'sentence' } }] };
  seedStore(
    data,
    [{ id: 'acme', name: ACME, profileText: '{"baseUrl": "https://sandbox.acme.example"}', createdAt: '2027-01-01T00:00:00.000Z', updatedAt: '2027-01-01T00:00:00.000Z' }],
    [
      { id: 'acme-flip', results: flipped },
      { id: 'acme-basis', results: storedRun({ startedAt: '2027-01-02T21:00:00.000Z', implementation: ACME, flipped: 'fail-on-profile' }) },
      { id: 'acme-steady', results: storedRun({ startedAt: '2027-01-01T21:00:00.000Z', implementation: ACME, flipped: 'agreed' }) },
      { id: 'acme-old', results: storedRun({ startedAt: '2026-12-01T21:00:00.000Z', implementation: ACME, flipped: 'warn-over-fail', suiteVersion: '0.0.1', certification: { certifiable: true, required: 2, gaps: [] } }) },
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

/** The runs a group of the page lists, in order. */
const runsIn = async (group: string): Promise<Array<string | null>> => Promise.all((await watched.page.locator(`${group} .rejudged-run`).all()).map((run) => run.getAttribute('data-run')));

test('from the navigation: the run whose verdict changes first, opening onto its flipped check before and after; the runs nothing changes in counted', async () => {
  const { page } = watched;
  await signIn(page, lab.url, lab.token, '/');
  await page.click('header nav a[href="/console/rejudge"]');
  await page.waitForURL(/\/console\/rejudge$/);
  await page.locator('#rejudge-unchanged').waitFor();
  assert.equal(await page.locator('h1').innerText(), 'Re-judge stored runs with this version');
  assert.match(await page.locator('main > p.muted').first().innerText(), /^Every stored run judged again by ptas 0\.1\.0 from what it recorded, offline: nothing is sent to any implementation and nothing is stored\./);
  assert.equal(await page.locator('#rejudge-verdict h2').innerText(), 'Verdict or certifiability would change (2)');
  assert.deepEqual(await runsIn('#rejudge-verdict'), ['acme-flip', 'acme-old']);
  assert.deepEqual(await runsIn('#rejudge-checks'), ['acme-basis']);
  assert.equal(await page.locator('#rejudge-unchanged').innerText(), '1 run unchanged.');

  const run = page.locator('.rejudged-run[data-run="acme-flip"]');
  const summary = run.locator(':scope > summary');
  assert.match(await summary.innerText(), /^acme-fli acme .* judged by ptas 0\.1\.0 CONFORMANT → NOT CONFORMANT certifiability not recorded → not certifiable 1 check changed$/);
  const row = run.locator(`tr.changed-check[data-check-id="${FLIPPED}"]`);
  assert.equal(await row.isVisible(), false, 'folded until opened');
  await summary.locator('.verdicts').click();
  await row.waitFor();
  const [, , beforeCell, afterCell] = await row.locator('td').all();
  assert.equal(await beforeCell!.innerText(), `WARN\n${HOSTILE_REASON}`, 'markup a run recorded stays text');
  assert.match(await afterCell!.locator('.basis').innerText(), /^Rests on spec 4\.1 rule 2, 5 rule 2: "It is exchanged with client_id for a new access token, and each refresh token is single-use\."$/);
  assert.equal(await afterCell!.locator('.badge').innerText(), 'FAIL');
  assert.equal(await row.locator('.new-check').count(), 0, 'a changed judgment, not a new check');
  assert.equal(await page.locator('main img').count(), 0);

  // A run's link leads to its page.
  await summary.locator('a').click();
  await page.waitForURL(/\/console\/runs\/acme-flip$/);
});

test('the run judged by 0.0.1: its flipped check and every check it never ran carry "new in 0.1.0"; its certifiability lost to them', async () => {
  const { page } = watched;
  await page.goto(`${lab.url}/console/rejudge`);
  const run = page.locator('.rejudged-run[data-run="acme-old"]');
  await run.waitFor();
  assert.match(await run.locator(':scope > summary').innerText(), /judged by ptas 0\.0\.1 CONFORMANT → NOT CONFORMANT certifiable → not certifiable 1 check changed, 1 new in this suite$/);
  await run.locator(':scope > summary .verdicts').click();
  const row = run.locator(`tr.changed-check[data-check-id="${FLIPPED}"]`);
  await row.waitFor();
  assert.equal(await row.locator('.new-check').innerText(), 'new in 0.1.0');

  const newChecks = run.locator('details.new-checks');
  assert.match(await newChecks.locator('summary').innerText(), /^\d+ checks new in this suite, never observed in this run \(only a new run gives them a verdict\)$/);
  await newChecks.locator('summary').click();
  const bearer = newChecks.locator('[data-check-id="users.bearer-required"]');
  await bearer.waitFor();
  assert.equal(await bearer.locator('.new-check').innerText(), 'new in 0.1.0');
  assert.equal(await newChecks.locator(`[data-check-id="${FLIPPED}"]`).count(), 0, 'the run observed it');

  const gaps = run.locator('details.gaps');
  assert.match(await gaps.locator('summary').innerText(), /^Would not verify: (\d+) gaps, \1 of them checks new in this suite$/);
  await gaps.locator('summary').click();
  assert.match(await gaps.locator('[data-check-id="users.bearer-required"]').innerText(), /^new in 0\.1\.0 required check users\.bearer-required is new in 0\.1\.0: this run never observed it$/);
});

test('nothing went wrong on the way: no console error, no dialog, no policy violation', async () => {
  assert.deepEqual(watched.problems, []);
  assert.deepEqual(watched.dialogs, []);
  assert.deepEqual(await cspViolations(watched.page), []);
});
