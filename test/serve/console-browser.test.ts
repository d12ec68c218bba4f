// The console in Chromium, on a real Fastify server on 127.0.0.1 with the
// fake services (test/serve/support/fake-services.ts): sign in with a token,
// create an implementation from ptas init's starter, the editor's schema
// diagnostics and key completion, Check (the doctor's table), start a run and
// watch its checks arrive, the report framed, the bundle downloaded, a
// comparison with another run, and Cancel on a queued and a running run;
// the session's secret kept in the origin's storage (a new tab shares it,
// sign-out forgets it), a browser that has only the cookie sent to the
// login form. The tests run in order on one signed-in page; none may log an
// error, show a dialog or violate the Content-Security-Policy.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { Readable } from 'node:stream';
import tar from 'tar-stream';
import type { Browser, Page } from '@playwright/test';
import { launchChromium } from '../report/support/browser.ts';
import { startConsole, type RunningConsole } from './support/console-server.ts';
import { FAKE_TOKEN } from './support/fake-services.ts';
import { bearerOf, cspViolations, expectDialog, pasteIntoEditor, secretOf, signIn, watchedPage, type Watched } from './support/console-page.ts';

let server: RunningConsole;
let browser: Browser;
let watched: Watched;
let page: Page;
let implementationId: string;
const runIds: string[] = [];

before(async () => {
  server = await startConsole({
    fake: {
      checkIntervalMs: 250,
      // The third and fourth runs never finish by themselves: they are cancelled.
      checksPerRun: (ordinal) => (ordinal >= 2 ? 10_000 : 5),
      // The second run fails one check the first passed: a regression to compare.
      checkVerdict: (ordinal, index) => (ordinal === 1 && index === 1 ? 'FAIL' : 'PASS'),
    },
  });
  browser = await launchChromium();
  watched = await watchedPage(browser);
  page = watched.page;
});

after(async () => {
  await browser?.close();
  await server?.close();
});

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
  await signIn(page, server.url, FAKE_TOKEN);
  assert.equal(new URL(page.url()).pathname, '/');
  assert.equal(await page.textContent('h1'), 'Implementations');
  await page.locator('header .who', { hasText: 'tester' }).waitFor();
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
  const stored = await server.fake.implementations.get(implementationId);
  assert.equal(stored?.name, 'Acme staging');
  assert.equal(stored?.profileText, await server.fake.starterProfileText(), 'the profile is stored as the editor showed it');
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

test('unsaved edits survive leaving the page and a reload: leaving asks first, the page opens on the draft, Save forgets it', async () => {
  const own = `/console/implementations/${implementationId}`;
  const edited = (await server.fake.starterProfileText()).replace('"baseUrl"', '// edited, not saved\n  "baseUrl"');
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
  assert.match((await server.fake.implementations.get(implementationId))?.profileText ?? '', /edited, not saved/);
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
  await page.goto(`${server.url}/console/implementations/${implementationId}`);
  await page.waitForSelector('body[data-ready="true"] #run-form');
});

test('Check runs the doctor on the editor’s profile and shows its table with the fix for each broken key', async () => {
  await page.click('#check');
  await page.waitForSelector('table.doctor');
  const problem = page.locator('table.doctor tr[data-outcome="PROBLEM"]');
  assert.equal(await problem.count(), 1);
  assert.equal(await problem.getAttribute('data-key'), 'users.getUser');
  assert.match((await problem.locator('td.fix').textContent()) ?? '', /check its method and path/);
  assert.match((await page.textContent('.doctor-summary')) ?? '', /1 broken key: users\.getUser/);
  assert.equal(await page.locator('table.doctor tbody tr').count(), 3);
  assert.equal(server.fake.doctored.at(-1), (await server.fake.implementations.get(implementationId))?.profileText, 'the profile the editor shows');
  // What certification still needs: the starter leaves out how to make offers, so every trading check would SKIP.
  const offers = page.locator('#certification-needs li[data-keys="trading.createOffer"]');
  assert.match((await offers.textContent()) ?? '', /trading\.createOffer — .*trading\.accept-newest-offer/);
  assert.match((await page.textContent('#certification-needs .doctor-summary')) ?? '', /^Certification: \d+ required checks would SKIP, and ptas verify refuses a bundle with one\. Set:$/);
  assert.deepEqual(server.fake.doctoredSecrets.at(-1), {}, 'nothing typed, nothing sent');

  // A one-run secret typed into the start-run form goes with Check as with a run: a profile of env: references can be checked.
  const secretField = page.locator('#run-form input[type="password"]').first();
  const secretName = ((await secretField.getAttribute('name')) ?? '').replace(/^secret-/, '');
  await secretField.fill('s3cret-for-check');
  const asked = server.fake.doctoredSecrets.length;
  await page.click('#check');
  for (let waited = 0; server.fake.doctoredSecrets.length === asked && waited < 10_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
  await page.waitForSelector('table.doctor');
  assert.deepEqual(server.fake.doctoredSecrets.at(-1), { env: { [secretName]: 's3cret-for-check' } });
  await secretField.fill('');
});

test('a run starts from the form, its one-run secret going with it only, and its checks arrive live until the verdict', async () => {
  await page.check('#run-form input[value="auth"]');
  const secretField = page.locator('#run-form input[type="password"]').first();
  const secretName = ((await secretField.getAttribute('name')) ?? '').replace(/^secret-/, '');
  await secretField.fill('s3cret-for-this-run');
  await page.fill('#run-form input[name="nonce"]', 'certifier-nonce-1');
  assert.equal(await page.isChecked('#run-form input[name="load"]'), true, 'the load stage is on unless turned off: a run without it cannot certify');
  await page.uncheck('#run-form input[name="load"]');
  await page.click('#run-form button[type="submit"]');
  await page.waitForURL(/\/console\/runs\/[A-Za-z0-9_-]+$/);
  const runId = new URL(page.url()).pathname.split('/').pop()!;
  runIds.push(runId);

  const record = await server.fake.runs.get(runId);
  assert.deepEqual(record?.options, { load: false, grep: '@area:auth', nonce: 'certifier-nonce-1' });
  assert.deepEqual(server.fake.secretsByRun.get(runId), { [secretName]: 's3cret-for-this-run' });
  assert.doesNotMatch(JSON.stringify(record), /s3cret/);

  // Live: the first check appears while the run still runs.
  await page.locator('.check-row').first().waitFor();
  const seenWhileRunning = await page.locator('.check-row').count();
  assert.ok(seenWhileRunning < 5, `the first check showed before the run ended (${seenWhileRunning} of 5)`);
  await page.locator('#run-verdict [data-verdict="CONFORMANT"]').waitFor({ timeout: 15_000 });
  assert.equal(await page.locator('.check-row').count(), 5);
  assert.equal(await page.getAttribute('#run-status', 'data-status'), 'finished');
  assert.match((await page.textContent('#counts')) ?? '', /5 checks.*PASS 5/);
  assert.match((await page.textContent('#elapsed')) ?? '', /\d/);
  assert.equal(await page.isVisible('#cancel'), false);
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
  assert.deepEqual(names.sort(), [`ptas-run-${runIds[0]}/index.html`, `ptas-run-${runIds[0]}/results.json`]);
});

test('Compare with… shows the baseline diff against another run of the implementation', async () => {
  await page.click(`a[href="/console/implementations/${implementationId}"]`);
  await page.waitForSelector('body[data-ready="true"] #run-form');
  await page.click('#run-form button[type="submit"]');
  await page.waitForURL((url) => url.pathname.startsWith('/console/runs/') && !url.pathname.endsWith(runIds[0]!));
  runIds.push(new URL(page.url()).pathname.split('/').pop()!);
  await page.locator('#run-verdict [data-verdict="NOT CONFORMANT"]').waitFor({ timeout: 15_000 });
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

test('Cancel ends a queued run and a running run INCOMPLETE', async () => {
  await page.click(`a[href="/console/implementations/${implementationId}"]`);
  await page.waitForSelector('body[data-ready="true"] #run-form');
  await page.click('#run-form button[type="submit"]');
  await page.waitForURL((url) => url.pathname.startsWith('/console/runs/') && !runIds.some((id) => url.pathname.endsWith(id)));
  const running = new URL(page.url()).pathname.split('/').pop()!;
  await page.locator('.check-row').first().waitFor();
  // A second run of the same implementation queues behind it.
  const answer = await page.request.post(`${server.url}/console/api/implementations/${implementationId}/runs`, { headers: await bearerOf(page), data: {} });
  assert.equal(answer.status(), 201);
  const queued = ((await answer.json()) as { id: string }).id;

  await page.goto(`${server.url}/console/runs/${queued}`);
  await page.waitForSelector('body[data-ready="true"]');
  await page.locator('#queue-position').waitFor();
  assert.match((await page.textContent('#queue-position')) ?? '', /position 1 in the queue/);
  let asked = expectDialog(watched, 'confirm', true);
  await page.click('#cancel');
  assert.match(await asked, /It has not started: it leaves the queue/);
  await page.locator('#run-status[data-status="cancelled"]').waitFor();
  assert.match((await page.textContent('#run-status')) ?? '', /INCOMPLETE/);
  assert.equal((await server.fake.runs.get(queued))?.status, 'cancelled');

  await page.goto(`${server.url}/console/runs/${running}`);
  await page.waitForSelector('body[data-ready="true"]');
  await page.locator('#run-status[data-status="running"]').waitFor();
  // Cancel asks first; staying leaves the run running.
  asked = expectDialog(watched, 'confirm', false);
  await page.click('#cancel');
  assert.match(await asked, /The checks in flight stop .* partial bundle/);
  assert.equal((await server.fake.runs.get(running))?.status, 'running');
  asked = expectDialog(watched, 'confirm', true);
  await page.click('#cancel');
  await asked;
  await page.locator('#run-status[data-status="cancelled"]').waitFor();
  assert.match((await page.textContent('#run-status')) ?? '', /INCOMPLETE/);
  assert.match((await page.textContent('#finished')) ?? '', /cancelled while running: the bundle is partial/);
  const record = await server.fake.runs.get(running);
  assert.equal(record?.verdict, 'INCOMPLETE');
  // Then the partial bundle is offered, with its report.
  await page.locator('#finished h2', { hasText: 'Partial report' }).waitFor();
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-bundle')]);
  assert.match((await page.textContent('#download-bundle')) ?? '', /Download the partial bundle/);
  const archive = readFileSync((await download.path())!);
  assert.ok((await tarEntries(archive)).includes(`ptas-run-${running}/results.json`));

  // A run cancelled before it started offers nothing to download, and a ticket for its bundle is refused rather than minted.
  await page.goto(`${server.url}/console/runs/${queued}`);
  await page.waitForSelector('body[data-ready="true"] #finished .notice');
  assert.equal(await page.locator('#download-bundle').count(), 0);
  const ticket = await page.request.post(`${server.url}/console/api/runs/${queued}/tickets`, { headers: await bearerOf(page), data: { kind: 'bundle' } });
  assert.equal(ticket.status(), 404);
  assert.equal(watched.expected.length, 0, 'every expected dialog came');
});

test('the live view goes on after its connection drops: each check once, as the counts say', async () => {
  await page.goto(`${server.url}/console/implementations/${implementationId}`);
  await page.waitForSelector('body[data-ready="true"] #run-form');
  await page.click('#run-form button[type="submit"]');
  await page.waitForURL((url) => url.pathname.startsWith('/console/runs/') && !runIds.some((id) => url.pathname.endsWith(id)));
  const runId = new URL(page.url()).pathname.split('/').pop()!;
  await page.locator('.check-row').nth(1).waitFor();
  const problems = watched.problems.length;
  // Every connection of the server closed under the page, the event stream's among them.
  server.app.server.closeAllConnections();
  const shown = await page.locator('.check-row').count();
  await page.locator('.check-row').nth(shown + 3).waitFor({ timeout: 15_000 });
  const rows = await page.locator('.check-row').count();
  const total = Number(/(\d+) checks?/.exec((await page.textContent('#counts')) ?? '')?.[1]);
  assert.ok(total >= rows && total <= rows + 1, `${rows} rows for ${total} checks counted: nothing shown twice`);
  const ids = (await page.evaluate("[...document.querySelectorAll('.check-row')].map((r) => r.dataset.checkId + ' ' + r.dataset.target)")) as string[];
  assert.equal(new Set(ids).size, ids.length, 'no check twice');
  assert.equal(await page.locator('.notice', { hasText: 'lost its connection' }).count(), 0);
  await server.fake.runs.cancel(runId);
  await page.locator('#run-status[data-status="cancelled"]').waitFor();
  // Chromium logs the cut stream itself (no script can keep it from doing so): that line, and only it, is expected here.
  const logged = watched.problems.splice(problems);
  assert.ok(logged.every((line) => /Failed to load resource: net::ERR_(INCOMPLETE_CHUNKED_ENCODING|EMPTY_RESPONSE|CONNECTION_(CLOSED|RESET))/.test(line)), logged.join('\n'));
});

test('a new tab shares the session; a browser with only the cookie gets the login form; sign-out ends the session and forgets its secret', async () => {
  const tab = await watched.context.newPage();
  await tab.goto(`${server.url}/console/implementations/${implementationId}`);
  await tab.waitForSelector('body[data-ready="true"] #run-form');
  const secret = await secretOf(tab);
  assert.ok(secret);

  // Another browser with the cookie alone (storage cleared, a stale cookie): the shell sends it to the login form, which shows.
  const cookies = await watched.context.cookies(server.url);
  const bare = await browser.newContext();
  await bare.addCookies(cookies);
  const barePage = await bare.newPage();
  await barePage.goto(`${server.url}/console/implementations/${implementationId}`);
  await barePage.waitForURL(/\/login\?next=%2Fconsole%2Fimplementations%2Facme-staging$/);
  await barePage.locator('#token').waitFor();
  assert.equal(await barePage.evaluate("localStorage.getItem('ptas-console-session')"), null);
  await bare.close();

  await tab.close();
  await page.click('#sign-out');
  await page.waitForURL(/\/login$/);
  await page.locator('#token').waitFor();
  assert.equal(await secretOf(page), null, 'the secret is forgotten');
  assert.deepEqual(await watched.context.cookies(server.url), [], 'the cookie is cleared');
  const after = await fetch(`${server.url}/console/api/implementations`, { headers: { cookie: cookies.map((c) => `${c.name}=${c.value}`).join('; '), authorization: `Bearer ${secret}` } });
  assert.equal(after.status, 401, 'the session ended: both halves together open nothing now');
});

test('no page logged an error, showed a dialog or violated the policy', async () => {
  assert.deepEqual(watched.problems, []);
  assert.deepEqual(watched.dialogs, []);
  assert.deepEqual(await cspViolations(page), []);
});
