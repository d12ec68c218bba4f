// Share links from the console (issue 30 item 7), on a real `ptas serve`
// server with its console and a finished run of the bundled reference, in
// Chromium: the run's page makes a link valid for a day, shows its address
// once and lists it (made by the signed-in token, live); the link, opened
// in a browser that never signed in, shows the report with a note that says
// it is shared and until when, and downloads the bundle; Revoke (confirmed)
// ends it, and the list says so. The page calls the API for CI with the
// session: no console error, no policy violation on the way. A reviewer's
// decision on a REVIEW check is recorded from the same page. A viewer's and
// a certifier's console offer only what their roles allow.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from '@playwright/test';
import type { RunRecord } from '../../app/serve/contract.ts';
import { launchChromium } from '../report/support/browser.ts';
import { startConsoleTestServer, waitForRun, type TestServer } from './support.ts';
import { cspViolations, expectDialog, signIn, watchedPage } from './support/console-page.ts';

let lab: TestServer;
let browser: Browser;
let run: RunRecord;

before(async () => {
  [lab, browser] = await Promise.all([startConsoleTestServer(), launchChromium()]);
  // Two checks: one that passes, and one that the reference always gives REVIEW (a reviewer decides it below).
  const started = await lab.call('POST', '/api/runs', { body: { implementation: 'reference', options: { load: false, grep: '@check:(auth.missing-bearer-is-401|auth.tokens-verify-against-jwks)(\\s|$)' } } });
  assert.equal(started.status, 202, started.text);
  run = await waitForRun(lab.call, (started.json as RunRecord).id, ['finished']);
});

after(async () => {
  await browser?.close();
  await lab?.close();
});

test('a run’s page makes a share link that expires, lists it, and revokes it; the link shows the report with its note and downloads the bundle without signing in', async () => {
  const watched = await watchedPage(browser);
  const { page } = watched;
  await signIn(page, lab.url, lab.token, `/console/runs/${run.id}`);
  await page.waitForSelector('#download-bundle');

  // Opened, the section asks for the run's links: none yet.
  await page.click('#share summary');
  await page.locator('#share-list', { hasText: 'No share link yet.' }).waitFor();

  // A link valid for a day: its address shown once, and listed as live, made by the signed-in token.
  await page.selectOption('#share-expiry', '1');
  await page.click('#create-share');
  const address = await page.locator('#new-share-url').inputValue();
  assert.match(address, new RegExp(`^${lab.url}/share/[A-Za-z0-9_-]{32}$`));
  assert.match((await page.textContent('#new-share')) ?? '', /shown only this once\. It is valid until /);
  const row = page.locator('#shares tr.share-row');
  await row.first().waitFor();
  assert.equal(await row.count(), 1);
  assert.equal(await row.first().getAttribute('data-status'), 'live');
  const listed = await lab.call('GET', `/api/runs/${run.id}/shares`);
  const share = listed.json.shares[0] as { id: string; expiresAt: string; createdBy: string };
  assert.ok(Math.abs(Date.parse(share.expiresAt) - (Date.now() + 86_400_000)) < 120_000, share.expiresAt);
  assert.equal(await row.first().getAttribute('data-share-id'), share.id);
  assert.ok(((await row.first().textContent()) ?? '').includes(share.createdBy), 'made by the signed-in token');
  assert.ok(!listed.text.includes(address.slice(address.lastIndexOf('/') + 1)), 'the list never holds the token');

  // The link in a browser that never signed in: the report, the note, the bundle.
  const stranger = await watchedPage(browser);
  await stranger.page.goto(address);
  const note = (await stranger.page.textContent('#shared-note')) ?? '';
  assert.match(note, /A read-only share link to this run's report, valid until \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC\./);
  assert.match((await stranger.page.textContent('body')) ?? '', /CONFORMANT/);
  const [download] = await Promise.all([stranger.page.waitForEvent('download'), stranger.page.click('#shared-note a')]);
  assert.equal(download.suggestedFilename(), `ptas-run-${run.id}.tar.gz`);
  assert.ok(((await download.path()) ?? '') !== '', 'the bundle downloaded');
  assert.deepEqual(stranger.problems, []);
  await stranger.context.close();

  // Revoke, confirmed: the list says revoked, and the link answers 404.
  const asked = expectDialog(watched, 'confirm', true);
  await page.click('#shares button.revoke-share');
  assert.match(await asked, /Revoke this share link\?/);
  await page.locator('#shares tr.share-row[data-status="revoked"]').waitFor();
  assert.equal(await page.locator('#shares button.revoke-share').count(), 0, 'nothing left to revoke');
  assert.equal((await fetch(address)).status, 404);

  assert.deepEqual(watched.problems, []);
  assert.deepEqual(watched.dialogs, []);
  assert.deepEqual(await cspViolations(page), []);
});

test('a reviewer decides a REVIEW check on the run’s page: the decision shows in the list and, the frame reloaded, in the report', async () => {
  const watched = await watchedPage(browser);
  const { page } = watched;
  await signIn(page, lab.url, lab.token, `/console/runs/${run.id}`);
  await page.waitForSelector('#report');
  await page.click('#reviews summary');
  const row = page.locator('#review-list tr.review-row[data-check="auth.tokens-verify-against-jwks"]');
  await row.waitFor();
  assert.equal(await row.getAttribute('data-decision'), 'undecided');
  await row.locator('select').selectOption('accepted');
  await row.locator('input.review-note').fill('keys published as documented');
  await row.locator('button.record-review').click();
  await page.locator('#review-list tr.review-row[data-decision="accepted"]').waitFor();
  assert.match((await page.locator('#review-list tr.review-row').textContent()) ?? '', /accepted by first-run.*keys published as documented/s);
  await page.frameLocator('#report').locator('#reviews', { hasText: 'keys published as documented' }).waitFor();
  assert.deepEqual(watched.problems, []);
  assert.deepEqual(await cspViolations(page), []);
  await watched.context.close();
});

test('a viewer’s console offers no run, Check, edit or share action, and says its role; a certifier’s offers runs and sharing, not editing', async () => {
  const viewerToken = lab.server.services.tokens.create('auditor', { role: 'viewer' });
  const watched = await watchedPage(browser);
  const { page } = watched;
  await signIn(page, lab.url, viewerToken, '/console/implementations/reference');
  await page.locator('#signed-in-as', { hasText: 'auditor (viewer)' }).waitFor();
  assert.equal(await page.isVisible('#run-form'), false, 'no run form');
  assert.equal(await page.isVisible('header a[href="/console/implementations/new"]'), false, 'no New implementation');
  assert.equal(await page.isVisible('header a[href="/console/audit"]'), false, 'no audit log');
  await page.goto(`${lab.url}/console/runs/${run.id}`);
  await page.waitForSelector('body[data-ready="true"] #download-bundle');
  assert.equal(await page.isVisible('#download-bundle'), true, 'a viewer downloads');
  await page.click('#share summary');
  await page.locator('#share-list table, #share-list p').first().waitFor();
  assert.equal(await page.isVisible('#create-share'), false, 'no share action');
  await page.click('#reviews summary');
  await page.locator('#review-list tr.review-row').first().waitFor();
  assert.equal(await page.isVisible('#review-list .review-form'), false, 'no review action');
  assert.deepEqual(watched.problems, []);
  await watched.context.close();

  const certifier = await watchedPage(browser);
  await signIn(certifier.page, lab.url, lab.server.services.tokens.create('runner', { role: 'certifier' }), '/console/implementations/reference');
  await certifier.page.locator('#signed-in-as', { hasText: 'runner (certifier)' }).waitFor();
  assert.equal(await certifier.page.isVisible('#run-form'), true, 'a certifier runs');
  assert.equal(await certifier.page.isVisible('header a[href="/console/implementations/new"]'), false, 'but creates no implementation');
  assert.deepEqual(certifier.problems, []);
  await certifier.context.close();
});

test('an admin reads the audit log from the header: who signed in and started what, newest first', async () => {
  const watched = await watchedPage(browser);
  const { page } = watched;
  await signIn(page, lab.url, lab.token);
  await page.click('header a[href="/console/audit"]');
  await page.waitForURL(/\/console\/audit$/);
  await page.waitForSelector('body[data-ready="true"] #audit');
  const actions = (await page.evaluate("[...document.querySelectorAll('#audit tr.audit-row')].map((r) => r.dataset.actor + ' ' + r.dataset.action)")) as string[];
  assert.equal(actions[0], 'first-run sign in', 'newest first: this sign-in');
  assert.ok(actions.includes('first-run POST /api/runs'), `the run the lab started: ${actions.join(', ')}`);
  assert.deepEqual(watched.problems, []);
  await watched.context.close();
});
