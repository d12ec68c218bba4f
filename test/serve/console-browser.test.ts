// The console in Chromium, on a real `ptas serve` server on 127.0.0.1 (its
// services over a temporary store), certifying the bundled reference started
// in this process as the implementation under test: sign in with a token,
// create an implementation from ptas init's starter, the editor's schema
// diagnostics and key completion, Check (the doctor's table, with a one-run
// secret), start a run and watch its checks arrive, the report framed, the
// bundle downloaded, a comparison with another run, the live view across a
// dropped connection, and Cancel on a queued and a running run; the
// session's secret kept in the origin's storage (a new tab shares it,
// sign-out forgets it), a browser that has only the cookie sent to the login
// form. Runs are narrowed to a check or an area, without the load stage. The
// tests run in order on one signed-in page; none may log an error, show a
// dialog or violate the Content-Security-Policy.
import { after, before, mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { Readable } from 'node:stream';
import tar from 'tar-stream';
import type { Browser, Page } from '@playwright/test';
import type { RunRecord } from '../../app/serve/contract.ts';
import { ImplementationStore } from '../../app/serve/store/implementations.ts';
import { StoreLayout } from '../../app/serve/store/layout.ts';
import { REFERENCE_DEFAULTS } from '../../reference/options.ts';
import { referenceProfile } from '../../reference/profile.ts';
import { startHoldingProxy, type TestServer as ProxyServer } from '../support/servers.ts';
import { startReference, type RunningReference } from '../../reference/server.ts';
import { launchChromium } from '../report/support/browser.ts';
import { startConsoleTestServer, type TestServer } from './support.ts';
import { bearerOf, cspViolations, expectDialog, pasteIntoEditor, secretOf, signIn, watchedPage, type Watched } from './support/console-page.ts';

let lab: TestServer;
let reference: RunningReference;
/** The reference started here, behind a proxy that holds its JSON Web Key Set (startHoldingProxy). */
let holdingJwks: ProxyServer;
let browser: Browser;
let watched: Watched;
let page: Page;
let implementationId: string;
const runIds: string[] = [];

/** The reference's client secret: what a certifier types into the start-run form for the profile's env:PTAS_CLIENT_SECRET. */
const CLIENT_SECRET = REFERENCE_DEFAULTS.clientSecret;
/** One check that needs a token: it passes with the client secret and fails with another. */
const TOKEN_CHECK = '@check:auth.client-credentials-issues-pair';

before(async () => {
  // Two runs at once (one per implementation in any case): the run to compare with goes on beside the bundled reference's.
  [lab, reference, browser] = await Promise.all([startConsoleTestServer({ maxConcurrentRuns: 2 }), startReference({ port: 0 }), launchChromium()]);
  holdingJwks = await startHoldingProxy(reference.url, (path) => path === '/.well-known/jwks.json');
  watched = await watchedPage(browser);
  page = watched.page;
});

after(async () => {
  await browser?.close();
  await lab?.close();
  await holdingJwks?.close();
  await reference?.close();
});

/** Fills the start-run form of the implementation's page: a grep, no load stage, the one-run client secret (none for the bundled reference). */
async function fillRunForm(grep: string, clientSecret?: string): Promise<void> {
  await page.fill('#run-form input[name="grep"]', grep);
  await page.uncheck('#run-form input[name="load"]');
  if (clientSecret !== undefined) await page.fill('#run-form input[name="secret-PTAS_CLIENT_SECRET"]', clientSecret);
}

/** Starts a run from an implementation's page and waits for the run's page. */
async function startFromForm(implementation: string, grep: string, clientSecret?: string): Promise<string> {
  await page.goto(`${lab.url}/console/implementations/${implementation}`);
  await page.waitForSelector('body[data-ready="true"] #run-form');
  await fillRunForm(grep, clientSecret);
  await page.click('#run-form button[type="submit"]');
  await page.waitForURL((url) => url.pathname.startsWith('/console/runs/') && !runIds.some((id) => url.pathname.endsWith(id)));
  const runId = new URL(page.url()).pathname.split('/').pop()!;
  runIds.push(runId);
  return runId;
}

async function tarEntries(gz: Buffer): Promise<string[]> {
  const names: string[] = [];
  const extract = tar.extract();
  extract.on('entry', (header, stream, next) => {
    names.push(header.name);
    stream.on('end', next);
    stream.resume();
  });
  const done = new Promise<void>((resolve, reject) => extract.on('finish', () => resolve()).on('error', reject));
  Readable.from([gunzipSync(gz)]).pipe(extract);
  await done;
  return names;
}

test('signing in with the token leads to the implementations page, the session’s secret kept in this origin’s storage', async () => {
  await signIn(page, lab.url, lab.token);
  assert.equal(new URL(page.url()).pathname, '/');
  assert.equal(await page.textContent('h1'), 'Implementations');
  await page.locator('header .who', { hasText: /^first-run$/ }).waitFor();
  assert.match((await secretOf(page)) ?? '', /^[A-Za-z0-9_-]{43}$/, '32 random bytes, base64url');
  const history = (await page.evaluate('navigation.entries().map((e) => new URL(e.url).pathname + new URL(e.url).search)')) as string[];
  assert.deepEqual(history, ['/login?next=%2F', '/'], 'the page that handed the secret over is not in the history (replaced)');
  assert.doesNotMatch(await page.content(), new RegExp((await secretOf(page))!), 'the page holds no secret');
});

test('an implementation is created from ptas init’s starter profile', async () => {
  await page.click('main a[href="/console/implementations/new"]');
  await page.waitForSelector('body[data-ready="true"] .cm-content');
  const starter = await page.textContent('.cm-content');
  assert.match(starter ?? '', /"baseUrl"/);
  assert.match(starter ?? '', /env:PTAS_CLIENT_SECRET/, 'the starter keeps secrets as env: references');
  await page.locator('#editor-status', { hasText: 'Not created yet' }).waitFor();
  assert.doesNotMatch((await page.textContent('#editor-status')) ?? '', /Unsaved/, '"Unsaved" only after an edit');
  await page.fill('#implementation-name', 'Acme staging');
  await page.click('#save');
  await page.waitForURL(/\/console\/implementations\/acme-staging$/);
  await page.waitForSelector('body[data-ready="true"] #run-form');
  implementationId = 'acme-staging';
  const stored = lab.server.services.implementations.get(implementationId);
  assert.equal(stored?.name, 'Acme staging');
  assert.equal(stored?.profileText, lab.server.services.starterProfile(), 'the profile is stored as the editor showed it');
});

test('the editor completes keys with their descriptions and marks a wrong key and a wrong type where they are', async () => {
  await pasteIntoEditor(page, '{\n  "bas');
  await page.keyboard.press('Control+Space');
  const option = page.locator('.cm-tooltip-autocomplete li', { hasText: 'baseUrl' });
  await option.first().waitFor();
  await page.locator('.cm-completionInfo').waitFor();
  assert.match((await page.textContent('.cm-completionInfo')) ?? '', /Base address/, 'the key’s description from the schema');
  await page.keyboard.press('Escape');

  await pasteIntoEditor(page, '{\n  // a comment is fine\n  "baseUrl": 42,\n  "bogusKey": true,\n  "credentials": { "clientSecret": "env:ACME_SECRET" }\n}\n');
  const wrongKey = page.locator('.cm-lintRange-error', { hasText: 'bogusKey' });
  const wrongType = page.locator('.cm-lintRange-error', { hasText: '42' });
  await wrongKey.waitFor();
  await wrongType.waitFor();
  await page.keyboard.press('Control+Shift+M');
  const messages = await page.locator('.cm-panel-lint .cm-diagnosticText').allTextContents();
  assert.ok(messages.some((m) => /bogusKey/.test(m) && /not allowed/i.test(m)), messages.join(' | '));
  assert.ok(messages.some((m) => /string/.test(m) && /number/.test(m)), messages.join(' | '));
  assert.equal(await page.locator('.cm-lintRange-error', { hasText: 'env:ACME_SECRET' }).count(), 0, 'an env: reference is a valid value');
  assert.equal(await page.getAttribute('#editor-status', 'data-problems'), String(messages.length));
  assert.deepEqual(await cspViolations(page), []);
  // Unsaved: the stored profile is unchanged, and Discard shows it again.
  await discardDraft();
  assert.match((await page.textContent('.cm-content')) ?? '', /env:PTAS_CLIENT_SECRET/);
});

/** The editor's first lines (it draws only the lines in view): the cursor goes to the start first. */
async function editorHead(): Promise<string> {
  await page.click('.cm-content');
  await page.keyboard.press('Control+Home');
  return (await page.textContent('.cm-content')) ?? '';
}

/** Discards the editor's unsaved changes (once the draft is kept) and waits for the stored profile. */
async function discardDraft(): Promise<void> {
  // Polled with evaluate: waitForFunction evaluates its text in the page, which the console's policy (no eval) refuses.
  for (let waited = 0; !(await page.evaluate(`Object.keys(sessionStorage).some((k) => k.startsWith('ptas-console-draft:'))`)); waited += 50) {
    assert.ok(waited < 10_000, 'the draft was never kept');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const leaving = expectDialog(watched, 'beforeunload', true);
  await page.reload();
  await leaving;
  await page.waitForSelector('body[data-ready="true"] #discard-draft');
  await page.click('#discard-draft');
  await page.locator('#editor-status', { hasText: /^Saved/ }).waitFor();
}

test('a large profile pastes and stays editable: beyond 64 KB the schema checks rest until Save or Check, and the status says so', async () => {
  const termsCase = '{"query": {"user_flow": "onboard"}, "expectedTerms": [101, 102]}';
  const large = `{\n  "baseUrl": "https://api.example.com",\n  "users": {"termsCases": [\n${Array(1_500).fill(termsCase).join(',\n')}\n]}\n}\n`;
  assert.ok(large.length > 64 * 1024);
  await pasteIntoEditor(page, large);
  await page.locator('#editor-status', { hasText: 'a large profile' }).waitFor();
  assert.match((await page.textContent('#editor-status')) ?? '', /^Unsaved changes.* a large profile: its keys are checked when you Save or Check, not as you type$/);
  const started = Date.now();
  await page.keyboard.type('x');
  await page.evaluate('1');
  assert.ok(Date.now() - started < 2_000, `a keystroke took ${Date.now() - started} ms`);
  // Nothing saved: the reload restores the draft, and discarding it shows the stored profile, saved.
  await discardDraft();
  assert.doesNotMatch((await page.textContent('#editor-status')) ?? '', /Unsaved|large profile/);
});

test('a wrong key past the first 3,000 characters of a stored profile is marked, however late the background parse reaches it', async () => {
  // CodeMirror parses the first 3,000 characters as the editor opens and the rest when the page is next idle; on a busy machine
  // that is after the linters' first run. A second tab of the session holds idle work back 3 s, as such a machine can.
  const at = new Date().toISOString();
  const comments = Array.from({ length: 100 }, (_, i) => `  // line ${i} of a long comment, to carry the mistake past the first parse\n`).join('');
  const profileText = `{\n${comments}  "baseUrl": "https://api.example.com",\n  "lateBogusKey": true\n}\n`;
  assert.ok(profileText.indexOf('lateBogusKey') > 3_000);
  new ImplementationStore(new StoreLayout(lab.data)).save({ id: 'late-mistake', name: 'Late mistake', profileText, createdAt: at, updatedAt: at });
  const tab = await page.context().newPage();
  try {
    await tab.addInitScript('window.requestIdleCallback = (callback) => setTimeout(() => callback({ didTimeout: true, timeRemaining: () => 0 }), 3000);');
    await tab.goto(`${lab.url}/console/implementations/late-mistake`);
    await tab.waitForSelector('body[data-ready="true"] .cm-content');
    await tab.click('.cm-content');
    await tab.keyboard.press('Control+End');
    await tab.locator('.cm-lintRange-error', { hasText: 'lateBogusKey' }).waitFor({ timeout: 15_000 });
    assert.deepEqual(await cspViolations(tab), []);
  } finally {
    await tab.close();
  }
});

test('unsaved edits survive leaving the page and a reload: leaving asks first, the page opens on the draft, Save forgets it', async () => {
  const own = `/console/implementations/${implementationId}`;
  // The edit: the address of the implementation under test.
  const edited = lab.server.services.starterProfile().replace('"baseUrl": "http://127.0.0.1:8080"', `// edited, not saved\n  "baseUrl": "${reference.url}"`);
  assert.notEqual(edited, lab.server.services.starterProfile());
  await pasteIntoEditor(page, edited);
  await page.locator('#editor-status', { hasText: 'Unsaved changes' }).waitFor();

  // Leaving for another page asks; staying keeps the page and its edits.
  let asked = expectDialog(watched, 'confirm', false);
  await page.click('.toolbar a[href="/console/implementations/new"]');
  assert.match(await asked, /unsaved changes/);
  assert.equal(new URL(page.url()).pathname, own);
  assert.match(await editorHead(), /edited, not saved/);

  // Leaving anyway, then Back: the page opens on the draft, and says so.
  asked = expectDialog(watched, 'confirm', true);
  await page.click('.toolbar a[href="/console/implementations/new"]');
  await asked;
  await page.waitForURL(/\/console\/implementations\/new$/);
  await page.waitForSelector('body[data-ready="true"] .cm-content');
  assert.doesNotMatch(await editorHead(), /edited, not saved/, 'New opens on the starter, not on another implementation\'s draft');
  await page.goBack();
  await page.waitForSelector('body[data-ready="true"] #draft-notice .notice');
  assert.match(await editorHead(), /edited, not saved/);
  assert.match((await page.textContent('#draft-notice')) ?? '', /unsaved changes of .* are back/);
  await page.locator('#editor-status', { hasText: 'Unsaved changes' }).waitFor();

  // A reload asks (the browser's own question) and opens on the draft again.
  const reloading = expectDialog(watched, 'beforeunload', true);
  await page.reload();
  await reloading;
  await page.waitForSelector('body[data-ready="true"] #draft-notice .notice');
  assert.match(await editorHead(), /edited, not saved/);

  // Save stores the draft's text and forgets the draft: a reload asks nothing and shows no draft.
  await page.click('#save');
  await page.locator('#editor-status', { hasText: /^Saved/ }).waitFor();
  assert.match(lab.server.services.implementations.get(implementationId)?.profileText ?? '', /edited, not saved/);
  assert.equal(await page.evaluate(`Object.keys(sessionStorage).filter((k) => k.startsWith('ptas-console-draft:')).length`), 0);
  await page.reload();
  await page.waitForSelector('body[data-ready="true"] .cm-content');
  assert.equal(await page.locator('#draft-notice .notice').count(), 0);
  assert.equal(watched.expected.length, 0, 'every expected dialog came');
});

test('New implementation starts from ptas init’s starter or a preset for a reference at the address given; an address it cannot use is refused', async () => {
  await page.click('.toolbar a[href="/console/implementations/new"]');
  await page.waitForSelector('body[data-ready="true"] #start-from');
  assert.equal(await page.isHidden('#start-base-url'), true, 'the starter needs no address');
  await page.selectOption('#start-from', 'deployed-api');
  await page.fill('#start-base-url', 'http://127.0.0.1:8080');
  await page.click('#use-start');
  await page.locator('.cm-content', { hasText: 'ptas reference --deployed-api' }).waitFor();
  const head = await editorHead();
  assert.match(head, /A complete profile for the bundled reference started as `ptas reference --deployed-api` at http:\/\/127\.0\.0\.1:8080/);
  assert.match(head, /"clientSecret": "env:PTAS_CLIENT_SECRET"/);
  await page.locator('#editor-status', { hasText: 'Not created yet' }).waitFor();

  const logged = watched.problems.length;
  await page.selectOption('#start-from', 'reference');
  await page.fill('#start-base-url', 'ftp://127.0.0.1');
  await page.click('#use-start');
  await page.locator('#start-problem .notice').waitFor();
  assert.match((await page.textContent('#start-problem')) ?? '', /baseUrl ftp:\/\/127\.0\.0\.1: /);
  // The refusal (400) is the one resource Chromium logs as failed.
  const failed = watched.problems.splice(logged);
  assert.ok(failed.every((line) => /status of 400/.test(line)), failed.join('\n'));
  await page.goto(`${lab.url}/console/implementations/${implementationId}`);
  await page.waitForSelector('body[data-ready="true"] #run-form');
});

test('Check runs the doctor on the editor’s profile and shows its table with the fix for each broken key, with the one-run secret typed for a run', async () => {
  const checks = mock.method(lab.server.services, 'check');
  try {
    // Nothing typed, nothing sent: the profile's env:PTAS_CLIENT_SECRET has no value Check may use, and it says so.
    const logged = watched.problems.length;
    await page.click('#check');
    await page.locator('#doctor .notice').waitFor();
    assert.match((await page.textContent('#doctor .notice')) ?? '', /env:PTAS_CLIENT_SECRET has no value this run may use/);
    const failed = watched.problems.splice(logged);
    assert.ok(failed.every((line) => /status of 422/.test(line)), `the refusal is the one resource Chromium logs as failed: ${failed.join('\n')}`);
    const stored = lab.server.services.implementations.get(implementationId)?.profileText;
    assert.deepEqual(checks.mock.calls.at(-1)?.arguments, [stored, undefined], 'the profile the editor shows, and no secret');

    // A one-run secret typed into the start-run form goes with Check as with a run: the starter's client id is no client of the reference's.
    const secretField = page.locator('#run-form input[name="secret-PTAS_CLIENT_SECRET"]');
    await secretField.fill('s3cret-for-check');
    await page.click('#check');
    await page.waitForSelector('table.doctor');
    assert.deepEqual(checks.mock.calls.at(-1)?.arguments, [stored, { env: { PTAS_CLIENT_SECRET: 's3cret-for-check' } }]);
    const problem = page.locator('table.doctor tr[data-outcome="PROBLEM"]');
    assert.equal(await problem.count(), 1);
    assert.equal(await problem.getAttribute('data-key'), 'credentials');
    assert.match((await problem.locator('td.fix').textContent()) ?? '', /check credentials\.clientId and credentials\.clientSecret/);
    assert.match((await page.textContent('.doctor-summary')) ?? '', /1 broken key: credentials/);
    // What certification still needs: the starter leaves out how to make offers, so every trading check would SKIP.
    const offers = page.locator('#certification-needs li[data-keys="trading.createOffer"]');
    assert.match((await offers.textContent()) ?? '', /trading\.createOffer — .*trading\.accept-newest-offer/);
    assert.match((await page.textContent('#certification-needs .doctor-summary')) ?? '', /^Certification: \d+ required checks would SKIP, and ptas verify refuses a bundle with one\. Set:$/);
    await secretField.fill('');
  } finally {
    checks.mock.restore();
  }
});

test('a run starts from the form, its one-run secret going with it only, and its checks arrive live until the verdict', async () => {
  // The profile the reference needs (its client, its operations), from its preset, saved.
  await pasteIntoEditor(page, await lab.server.services.presetProfile('reference', { baseUrl: reference.url }));
  await page.click('#save');
  await page.locator('#editor-status', { hasText: /^Saved/ }).waitFor();
  await fillRunForm(TOKEN_CHECK, CLIENT_SECRET);
  await page.fill('#run-form input[name="nonce"]', 'certifier-nonce-1');
  await page.click('#run-form button[type="submit"]');
  await page.waitForURL(/\/console\/runs\/[A-Za-z0-9_-]+$/);
  const runId = new URL(page.url()).pathname.split('/').pop()!;
  runIds.push(runId);

  const record = lab.server.services.runs.get(runId);
  assert.deepEqual(record?.options, { load: false, grep: TOKEN_CHECK, nonce: 'certifier-nonce-1' });

  // Live: the first check appears while the run still runs.
  await page.locator('.check-row').first().waitFor({ timeout: 30_000 });
  assert.equal(await page.getAttribute('#run-status', 'data-status'), 'running', 'the first check showed before the run ended');
  await page.locator('#run-verdict [data-verdict="CONFORMANT"]').waitFor({ timeout: 30_000 });
  assert.equal(await page.getAttribute('#run-status', 'data-status'), 'finished');
  // The counts are those of the rows: each check shown once, by its verdict.
  const verdicts = (await page.evaluate("[...document.querySelectorAll('.check-row')].map((r) => r.dataset.verdict)")) as string[];
  const counted = [...new Set(verdicts)].map((v) => `${v} ${verdicts.filter((x) => x === v).length}`);
  assert.ok(verdicts.includes('PASS'));
  for (const count of [`${verdicts.length} checks`, ...counted]) assert.ok(((await page.textContent('#counts')) ?? '').includes(count), count);
  assert.match((await page.textContent('#elapsed')) ?? '', /\d/);
  assert.equal(await page.isVisible('#cancel'), false);
  // The token check passed: the secret went with the run; and it is nowhere in the run's record or events.
  assert.equal(await page.locator(`.check-row[data-check-id="auth.client-credentials-issues-pair"][data-verdict="PASS"]`).count(), 1);
  const events = await lab.call('GET', `/api/runs/${runId}/events`);
  assert.ok(!JSON.stringify(lab.server.services.runs.get(runId)).includes(CLIENT_SECRET) && !events.text.includes(CLIENT_SECRET), 'the secret is not kept');

  // The run to compare with (below), asked now to run while the next tests do: the same check with another client secret, so the token is refused.
  const next = await page.request.post(`${lab.url}/api/runs`, { headers: await bearerOf(page), data: { implementation: implementationId, options: { grep: TOKEN_CHECK }, secrets: { env: { PTAS_CLIENT_SECRET: 'not-the-client-secret' } } } });
  assert.equal(next.status(), 202);
  runIds.push(((await next.json()) as RunRecord).id);
});

test('the finished run’s report loads in its frame under its own policy, by a ticket good for one use', async () => {
  const frame = page.frameLocator('#report');
  await frame.locator('body[data-ready="true"]').waitFor({ timeout: 20_000 });
  assert.match((await frame.locator('body').textContent()) ?? '', /CONFORMANT/);
  const reportFrame = page.frames().find((f) => new URL(f.url()).pathname === `/console/runs/${runIds[0]}/report`);
  assert.ok(reportFrame, 'the report is framed from the console');
  assert.match(new URL(reportFrame.url()).searchParams.get('ticket') ?? '', /^[A-Za-z0-9_-]{43}$/);
  // The frame's URL again, in the same browser (its cookie): the ticket was used.
  const again = await page.request.get(reportFrame.url());
  assert.equal(again.status(), 401);
  assert.equal(again.headers()['referrer-policy'], 'no-referrer');
  // On its own, in a new tab: a ticket of its own.
  const [alone] = await Promise.all([watched.context.waitForEvent('page'), page.click('#open-report')]);
  await alone.locator('body[data-ready="true"]').waitFor({ timeout: 20_000 });
  const aloneUrl = new URL(alone.url());
  assert.equal(aloneUrl.pathname, `/console/runs/${runIds[0]}/report`);
  assert.notEqual(aloneUrl.searchParams.get('ticket'), new URL(reportFrame.url()).searchParams.get('ticket'));
  assert.match((await alone.textContent('body')) ?? '', /CONFORMANT/);
  await alone.close();
  assert.deepEqual(await cspViolations(page), []);
});

test('Download bundle answers the run’s archive', async () => {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-bundle')]);
  assert.equal(download.suggestedFilename(), `ptas-run-${runIds[0]}.tar.gz`);
  const names = await tarEntries(readFileSync((await download.path())!));
  assert.ok(names.every((name) => name.startsWith(`ptas-run-${runIds[0]}/`)), names.join(' '));
  for (const file of ['index.html', 'results.json', 'manifest.json']) assert.ok(names.includes(`ptas-run-${runIds[0]}/${file}`), `${file} in ${names.join(' ')}`);
});

/**
 * A run of the auth area, which the live view follows across a dropped connection, and Cancel then stops: of a
 * profile whose requests go through a proxy that holds the JSON Web Key Set's, so that one check waits (within a
 * per-request limit of two minutes) and the run stays running until it is cancelled, on a fast machine too.
 */
let running: string;
const HELD_IMPLEMENTATION = 'held-jwks';

test('the live view goes on after its connection drops: each check once, as the counts say', async () => {
  // The reference's profile with its secrets given with the run (the server stores none), as a certifier would keep it.
  const { credentials, users, ...profile } = referenceProfile(holdingJwks.url);
  const secret = 'env:PTAS_CLIENT_SECRET';
  const ownLicence = users?.ownLicence && { ...users.ownLicence, clientSecret: secret };
  const profileText = JSON.stringify({ ...profile, name: 'Held JWKS', credentials: { ...credentials, clientSecret: secret }, users: { ...users, ownLicence }, http: { timeoutMs: 120_000 } }, null, 2);
  const at = new Date().toISOString();
  new ImplementationStore(new StoreLayout(lab.data)).save({ id: HELD_IMPLEMENTATION, name: 'Held JWKS', profileText, createdAt: at, updatedAt: at });
  running = await startFromForm(HELD_IMPLEMENTATION, '@area:auth', CLIENT_SECRET);
  await page.locator('.check-row').nth(1).waitFor({ timeout: 30_000 });
  const problems = watched.problems.length;
  // Every connection of the server closed under the page, the event stream's among them.
  lab.server.app.server.closeAllConnections();
  const shown = await page.locator('.check-row').count();
  await page.locator('.check-row').nth(shown + 3).waitFor({ timeout: 30_000 });
  // Rows and counts read at once: the checks go on arriving.
  const { rows, counts } = (await page.evaluate("({ rows: document.querySelectorAll('.check-row').length, counts: document.getElementById('counts').textContent })")) as { rows: number; counts: string };
  // "N of M checks": N so far, of the M the run reports in all.
  const total = Number(/(\d+)(?: of \d+)? checks?/.exec(counts)?.[1]);
  assert.equal(total, rows, `${rows} rows for ${total} checks counted: nothing lost, nothing shown twice`);
  const ids = (await page.evaluate("[...document.querySelectorAll('.check-row')].map((r) => r.dataset.checkId + ' ' + r.dataset.target)")) as string[];
  assert.equal(new Set(ids).size, ids.length, 'no check twice');
  assert.equal(await page.locator('.notice', { hasText: 'lost its connection' }).count(), 0);
  assert.equal(await page.getAttribute('#run-status', 'data-status'), 'running', 'the run goes on: Cancel stops it below');
  // Chromium logs the cut stream itself (no script can keep it from doing so): that line, and only it, is expected here.
  const logged = watched.problems.splice(problems);
  assert.ok(logged.every((line) => /Failed to load resource: net::ERR_(INCOMPLETE_CHUNKED_ENCODING|EMPTY_RESPONSE|CONNECTION_(CLOSED|RESET))/.test(line)), logged.join('\n'));
});

test('Cancel takes a queued run out of the queue, and ends a running run INCOMPLETE with its partial bundle', async () => {
  // A second run of the same implementation queues behind the one that runs.
  const answer = await page.request.post(`${lab.url}/api/runs`, {
    headers: await bearerOf(page),
    data: { implementation: HELD_IMPLEMENTATION, options: { grep: TOKEN_CHECK }, secrets: { env: { PTAS_CLIENT_SECRET: CLIENT_SECRET } } },
  });
  assert.equal(answer.status(), 202);
  const queued = ((await answer.json()) as RunRecord).id;

  await page.goto(`${lab.url}/console/runs/${queued}`);
  await page.waitForSelector('body[data-ready="true"]');
  await page.locator('#queue-position').waitFor();
  assert.match((await page.textContent('#queue-position')) ?? '', /position 1 in the queue/);
  let asked = expectDialog(watched, 'confirm', true);
  await page.click('#cancel');
  assert.match(await asked, /It has not started: it leaves the queue/);
  await page.locator('#run-status[data-status="cancelled"]').waitFor();
  assert.match((await page.textContent('#run-status')) ?? '', /cancelled before it started/);
  assert.equal(lab.server.services.runs.get(queued)?.status, 'cancelled');
  assert.equal(lab.server.services.runs.get(queued)?.verdict, undefined, 'no verdict: no check ran');

  await page.goto(`${lab.url}/console/runs/${running}`);
  await page.waitForSelector('body[data-ready="true"]');
  await page.locator('#run-status[data-status="running"]').waitFor();
  // Cancel asks first; staying leaves the run running.
  asked = expectDialog(watched, 'confirm', false);
  await page.click('#cancel');
  assert.match(await asked, /The checks in flight stop .* partial bundle/);
  assert.equal(lab.server.services.runs.get(running)?.status, 'running');
  asked = expectDialog(watched, 'confirm', true);
  await page.click('#cancel');
  await asked;
  await page.locator('#run-status[data-status="cancelled"]').waitFor({ timeout: 30_000 });
  assert.match((await page.textContent('#run-status')) ?? '', /INCOMPLETE/);
  assert.match((await page.textContent('#finished')) ?? '', /cancelled while running: the bundle is partial/);
  assert.equal(lab.server.services.runs.get(running)?.verdict, 'INCOMPLETE');
  // Then the partial bundle is offered, with its report.
  await page.locator('#finished h2', { hasText: 'Partial report' }).waitFor();
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-bundle')]);
  assert.match((await page.textContent('#download-bundle')) ?? '', /Download the partial bundle/);
  const archive = readFileSync((await download.path())!);
  assert.ok((await tarEntries(archive)).includes(`ptas-run-${running}/results.json`));

  // A run cancelled before it started offers nothing to download, and a ticket for its bundle is refused rather than minted.
  await page.goto(`${lab.url}/console/runs/${queued}`);
  await page.waitForSelector('body[data-ready="true"] #finished .notice');
  assert.equal(await page.locator('#download-bundle').count(), 0);
  const ticket = await page.request.post(`${lab.url}/api/runs/${queued}/tickets`, { headers: await bearerOf(page), data: { kind: 'bundle' } });
  assert.equal(ticket.status(), 409);
  assert.equal(watched.expected.length, 0, 'every expected dialog came');
});

test('Compare with… shows the baseline diff against another run of the implementation', async () => {
  // The run asked after the first: the same check with another client secret, the token refused, a regression.
  await page.goto(`${lab.url}/console/runs/${runIds[1]}`);
  await page.locator('#run-verdict [data-verdict="NOT CONFORMANT"]').waitFor({ timeout: 30_000 });
  await page.locator('#compare-with').waitFor();
  assert.equal(await page.inputValue('#compare-with'), runIds[0]);
  await page.click('#compare');
  await page.locator('#comparison').waitFor();
  assert.match((await page.textContent('#comparison')) ?? '', /CONFORMANT.*→ this run: NOT CONFORMANT/);
  assert.match((await page.textContent('#comparison .regressions')) ?? '', /1 regression/);
  const failing = page.locator('#comparison .changes-failing tbody tr');
  assert.equal(await failing.count(), 1);
  assert.match((await failing.textContent()) ?? '', /PASS.*FAIL/);
});

test('Run again only these, on the failed run’s page: with the one-run secret typed, the re-run joins both attempts (fail-then-pass is FLAKY) and says whose re-run it is', async () => {
  await page.goto(`${lab.url}/console/runs/${runIds[1]}`);
  await page.waitForSelector('body[data-ready="true"] #rerun-form');
  assert.match((await page.textContent('#rerun-form')) ?? '', /a check that failed and then passes is FLAKY/);
  await page.fill('#rerun-form input[name="secret-PTAS_CLIENT_SECRET"]', CLIENT_SECRET);
  await page.click('#rerun');
  await page.waitForURL((url) => url.pathname.startsWith('/console/runs/') && !url.pathname.endsWith(runIds[1]!));
  const rerunId = new URL(page.url()).pathname.split('/').pop()!;
  assert.deepEqual(lab.server.services.runs.get(rerunId)?.options, { rerunOf: runIds[1], load: false }, 'the failed run’s options, and whose re-run it is');
  // The client-side navigation changes the address before it draws the new page: wait for the page that says it.
  await page.locator('.run-meta', { hasText: `a re-run of ${runIds[1]!.slice(0, 8)}` }).waitFor();
  assert.match((await page.textContent('.run-meta')) ?? '', /a re-run of \S+ joined to it · no load stage$/);
  await page.locator('#run-verdict [data-verdict="NOT CONFORMANT"]').waitFor({ timeout: 60_000 });
  // Live, the re-run's own attempt: the token check alone, passing now; the verdict is the joined run's.
  const rows = (await page.evaluate("[...document.querySelectorAll('.check-row')].map((r) => r.dataset.checkId + ' ' + r.dataset.verdict)")) as string[];
  assert.ok(rows.includes('auth.client-credentials-issues-pair PASS'), rows.join(', '));
  assert.ok(!rows.some((row) => row.endsWith(' FAIL')), rows.join(', '));
  await page.locator('#counts .count[data-verdict="FLAKY"]').waitFor();
  assert.match((await page.textContent('#counts .count[data-verdict="FLAKY"]')) ?? '', /1/);
  // A FLAKY check is tried again: its page offers another re-run.
  await page.locator('#rerun-form').waitFor();
});

test('a new tab shares the session; a browser with only the cookie gets the login form; sign-out ends the session and forgets its secret', async () => {
  const tab = await watched.context.newPage();
  await tab.goto(`${lab.url}/console/implementations/${implementationId}`);
  await tab.waitForSelector('body[data-ready="true"] #run-form');
  const secret = await secretOf(tab);
  assert.ok(secret);

  // Another browser with the cookie alone (storage cleared, a stale cookie): the shell sends it to the login form, which shows.
  const cookies = await watched.context.cookies(lab.url);
  const bare = await browser.newContext();
  await bare.addCookies(cookies);
  const barePage = await bare.newPage();
  await barePage.goto(`${lab.url}/console/implementations/${implementationId}`);
  await barePage.waitForURL(/\/login\?next=%2Fconsole%2Fimplementations%2Facme-staging$/);
  await barePage.locator('#token').waitFor();
  assert.equal(await barePage.evaluate("localStorage.getItem('ptas-console-session')"), null);
  await bare.close();

  await tab.close();
  await page.click('#sign-out');
  await page.waitForURL(/\/login$/);
  await page.locator('#token').waitFor();
  assert.equal(await secretOf(page), null, 'the secret is forgotten');
  assert.deepEqual(await watched.context.cookies(lab.url), [], 'the cookie is cleared');
  const after = await fetch(`${lab.url}/api/implementations`, { headers: { cookie: cookies.map((c) => `${c.name}=${c.value}`).join('; '), authorization: `Bearer ${secret}` } });
  assert.equal(after.status, 401, 'the session ended: both halves together open nothing now');
});

test('no page logged an error, showed a dialog or violated the policy', async () => {
  assert.deepEqual(watched.problems, []);
  assert.deepEqual(watched.dialogs, []);
  assert.deepEqual(await cspViolations(page), []);
});
