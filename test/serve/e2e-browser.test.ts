// The console tried as a new user would (issues 23 and 30), with nothing
// faked: `ptas serve` and `ptas reference --deployed-api` as child processes
// of the command line, Debian's Chromium driven by Playwright. Open the
// address `ptas serve` printed, sign in with its first-run token, look at the
// bundled reference's page, create an implementation from the console's
// deployed-API preset pointed at the reference (its client secret an env:
// reference, its value typed into the start-run form for one run only),
// Check it with that secret (ptas doctor's table, every operation OK), start
// a full run with the load stage and a certifier's nonce, watch its checks
// arrive while it runs, see a CONFORMANT verdict the page says is
// certifiable, its report, download its bundle and `ptas verify` it with the
// nonce: every step holds. No edit outside the console, no secret in the
// clear. On the way: no console error, no Content-Security-Policy violation,
// the token printed once, never again (pages, every answer the browser got,
// the event stream, the server's output up to its stop); the reference's
// secret nowhere but the password field it was typed into.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from '@playwright/test';
import type { ImplementationRecord, RunRecord } from '../../app/serve/contract.ts';
import { fromRoot } from '../../src/paths.ts';
import { launchChromium } from '../report/support/browser.ts';
import { runPtas } from '../support/cli.ts';
import { cspViolations, secretOf, signIn, watchedPage } from './support/console-page.ts';
import { startServeProcess, type ServeProcess } from './support.ts';
import { stopProcess } from '../support/processes.ts';

interface ReferenceProcess {
  child: ChildProcess;
  url: string;
  clientId: string;
  stdout: () => string;
}

/** `ptas reference --deployed-api --port 0` as a user starts it, its client secret from PTAS_REF_CLIENT_SECRET; resolves once it printed its address and client id. */
function startReferenceProcess(clientSecret: string): Promise<ReferenceProcess> {
  const child = spawn(process.execPath, [fromRoot('bin', 'ptas.js'), 'reference', '--deployed-api', '--port', '0'], {
    cwd: fromRoot(),
    env: { ...process.env, PTAS_REF_CLIENT_SECRET: clientSecret },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`ptas reference did not start:\n${stdout}\n${stderr}`)), 30_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`ptas reference exited with ${code}:\n${stdout}\n${stderr}`));
    });
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk;
      const url = /listening on (\S+)/.exec(stdout)?.[1];
      const clientId = /client_id (\S+);/.exec(stdout)?.[1];
      if (url && clientId) {
        clearTimeout(timer);
        resolve({ child, url, clientId, stdout: () => stdout });
      }
    });
  });
}


/** The files under `dir` whose bytes hold `text`. */
function filesHolding(dir: string, text: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) => {
    const full = path.join(dir, file);
    return statSync(full).isFile() && readFileSync(full).includes(text);
  });
}

/** The one secret of the deployed-API preset: the env: reference its profile makes of the client secret (app/init/presets.ts). */
const PRESET_SECRET = 'PTAS_CLIENT_SECRET';

test('a new user: ptas serve, sign in, an implementation from the deployed-API preset, Check and a full run with a one-run secret, a certifiable CONFORMANT, its bundle through ptas verify', { timeout: 600_000 }, async (t) => {
  const started = performance.now();
  const clientSecret = `e2e-${randomBytes(18).toString('hex')}`;
  const nonce = `nonce-${randomBytes(6).toString('hex')}`;
  const data = mkdtempSync(path.join(os.tmpdir(), 'ptas-e2e-data-'));
  const downloads = mkdtempSync(path.join(os.tmpdir(), 'ptas-e2e-download-'));
  let reference: ReferenceProcess | undefined;
  let serve: ServeProcess | undefined;
  let browser: Browser | undefined;
  try {
    [reference, serve, browser] = await Promise.all([startReferenceProcess(clientSecret), startServeProcess(data), launchChromium()]);
    const token = serve.token;
    assert.ok(token, `ptas serve printed no first-run token:\n${serve.stdout()}`);
    assert.match(serve.stdout(), /the console: open http:\/\/127\.0\.0\.1:\d+\/ in a browser/);
    const base = serve.url;
    const api = async <T>(route: string): Promise<T> => (await (await fetch(`${base}${route}`, { headers: { authorization: `Bearer ${token}` } })).json()) as T;
    const watched = await watchedPage(browser);
    const { page } = watched;
    const pageHtml: string[] = [];
    const snapshot = async (what: string) => pageHtml.push(`${what}:\n${await page.content()}`);
    // Every answer the browser received but the event stream (read whole below) and the archive.
    const answers: Array<Promise<string>> = [];
    watched.context.on('response', (response) => {
      const type = response.headers()['content-type'] ?? '';
      if (!type.includes('event-stream') && !type.includes('gzip')) answers.push(response.text().then((text) => `${response.url()}:\n${text}`, () => ''));
    });
    // Every request the browser sent: the secret goes with Check and the run's start, in their bodies, and nowhere else.
    const carriedSecret: string[] = [];
    watched.context.on('request', (request) => {
      if ((request.postData() ?? '').includes(clientSecret) || JSON.stringify(request.headers()).includes(clientSecret)) carriedSecret.push(`${request.method()} ${new URL(request.url()).pathname}`);
    });

    // Open the printed address: the login page; sign in with the printed token.
    await signIn(page, base, token);
    assert.equal(await page.textContent('h1'), 'Implementations');
    assert.ok(await page.locator('tr[data-implementation="reference"]').count(), 'the bundled reference is listed');
    await snapshot('implementations');

    // The bundled reference's page: nothing to configure, its runs and the start-run form.
    await page.click('tr[data-implementation="reference"] a');
    await page.waitForSelector('body[data-ready="true"] #run-form');
    assert.equal(await page.textContent('h1'), 'The bundled reference');
    await snapshot('the reference');

    // New implementation: the editor holds ptas init's starter; start from the deployed-API preset at the reference's address instead.
    await page.click('header a[href="/console/implementations/new"]');
    await page.waitForSelector('body[data-ready="true"] .cm-content');
    assert.match((await page.textContent('.cm-content')) ?? '', /"baseUrl"/);
    await page.selectOption('#start-from', 'deployed-api');
    await page.fill('#start-base-url', reference.url);
    await page.click('#use-start');
    await page.locator('.cm-content', { hasText: 'ptas reference --deployed-api' }).waitFor();
    await snapshot('new implementation');

    // Create it, as the preset wrote it: stored as shown, its secret an env: reference.
    await page.fill('#implementation-name', 'Deployed API (e2e)');
    await page.click('#save');
    await page.waitForURL(/\/console\/implementations\/deployed-api-e2e$/);
    await page.waitForSelector('body[data-ready="true"] #run-form');
    const stored = await api<ImplementationRecord>('/api/implementations/deployed-api-e2e');
    assert.ok(stored.profileText.includes(`"env:${PRESET_SECRET}"`), 'the preset refers to its secret');
    assert.ok(stored.profileText.includes(reference.url), 'the preset points at the reference');
    await snapshot('implementation');

    // The start-run form asks for the one secret the profile refers to; Check takes it from there.
    const secretField = page.locator(`#run-form input[name="secret-${PRESET_SECRET}"]`);
    assert.equal(await secretField.getAttribute('type'), 'password');
    await secretField.fill(clientSecret);
    await page.click('#check');
    await page.waitForSelector('#doctor table.doctor, #doctor .notice', { timeout: 60_000 });
    const outcomes = (await page.evaluate("[...document.querySelectorAll('#doctor tr[data-outcome]')].map((r) => r.dataset.outcome + ' ' + r.dataset.key)")) as string[];
    assert.ok(outcomes.filter((o) => o.startsWith('OK ')).length >= 10, `the doctor's rows: ${outcomes.join(', ') || (await page.textContent('#doctor'))}`);
    assert.deepEqual(outcomes.filter((o) => !o.startsWith('OK ')), [], 'every key OK');
    await snapshot('doctor');

    // A full run: every area, the load stage (on by default), a short exploration, the certifier's nonce, the secret for this run only.
    assert.equal(await page.isChecked('#run-form input[name="load"]'), true, 'the load stage is on by default');
    assert.equal(await page.inputValue('#run-form input[name="explore"]'), '0', 'no exploration unless asked for');
    await page.fill('#run-form input[name="explore"]', '3');
    await page.fill('#run-form input[name="nonce"]', nonce);
    await page.click('#run-form button[type="submit"]');
    await page.waitForURL(/\/console\/runs\/[A-Za-z0-9_-]+$/);
    const runId = new URL(page.url()).pathname.split('/').pop()!;

    // Live: checks arrive while the run runs (the API says so at that moment).
    await page.locator('#checks tr.check-row').nth(2).waitFor({ timeout: 120_000 });
    const whileArriving = await api<RunRecord>(`/api/runs/${runId}`);
    const shownAfterMs = Date.now() - Date.parse(whileArriving.startedAt!);
    assert.equal(whileArriving.status, 'running', 'three checks were shown before the run ended');
    assert.equal(await page.locator('#run-verdict').count(), 0, 'no verdict while it runs');
    // Progress as "n of N checks": N is what the run reports in all (its planned checks, the cross-cutting one, the load stage's and the explored rules).
    const progress = page.locator('#counts .total[data-expected]');
    assert.match((await progress.textContent()) ?? '', /^\d+ of \d+ checks$/);
    const expected = Number(await progress.getAttribute('data-expected'));
    await snapshot('run, live');

    // The verdict, certifiable, the report framed, the bundle.
    await page.waitForSelector('#run-verdict', { timeout: 480_000 });
    const verdict = await page.getAttribute('#run-verdict [data-verdict]', 'data-verdict');
    const finished = await api<RunRecord>(`/api/runs/${runId}`);
    assert.equal(finished.status, 'finished');
    assert.equal(verdict, finished.verdict);
    assert.equal(verdict, 'CONFORMANT', (await page.textContent('main')) ?? '');
    assert.deepEqual(finished.certification?.gaps, [], 'nothing stands between this run and a certificate');
    assert.equal(await page.getAttribute('#run-certification', 'data-certifiable'), 'true', (await page.textContent('#run-certification')) ?? '');
    const rows = await page.locator('#checks tr.check-row').count();
    assert.equal(rows, Object.values(finished.counts ?? {}).reduce((a, n) => a + n, 0), 'one row per check');
    assert.equal(rows, expected, 'the run reported as many checks as its progress said it would');
    assert.ok(await page.locator('#checks tr.check-row[data-check-id^="load."]').count(), 'the load stage\'s checks are shown');
    assert.ok(await page.locator('#checks tr.check-row[data-check-id^="explore."]').count(), 'the exploration\'s rules are shown');
    await page.waitForSelector('#report');
    const report = page.frameLocator('#report');
    await report.locator('body').waitFor();
    assert.match((await report.locator('body').textContent()) ?? '', /CONFORMANT/);
    await snapshot('run, finished');

    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-bundle')]);
    assert.equal(download.suggestedFilename(), `ptas-run-${runId}.tar.gz`);
    const archive = path.join(downloads, download.suggestedFilename());
    await download.saveAs(archive);
    const extracted = path.join(downloads, 'extracted');
    mkdirSync(extracted);
    execFileSync('tar', ['xzf', archive, '-C', extracted]);
    assert.deepEqual(readdirSync(extracted), [`ptas-run-${runId}`]);
    const verified = await runPtas(['verify', path.join(extracted, `ptas-run-${runId}`), '--nonce', nonce]);
    const steps = verified.stdout.split('\n').filter((line) => /^[✔✖] /.test(line));
    assert.deepEqual(
      steps.map((line) => line.slice(0, 2) + line.slice(2).split(/\s{2,}/)[0]),
      ['✔ entries', '✔ manifest', '✔ files', '✔ signature', '✔ nonce', '✔ results.json', '✔ junit.xml', '✔ index.html', '✔ judgments', '✔ required checks'],
      verified.stdout + verified.stderr,
    );
    assert.match(steps[5]!, new RegExp(`CONFORMANT, ${rows} checks`));
    assert.equal(verified.code, 0, verified.stdout + verified.stderr);

    // The run's event stream, as the console's page reads it from the API (the session's cookie, and its secret from the page's storage as the bearer).
    const cookies = await watched.context.cookies(base);
    const cookie = cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const secret = await secretOf(page);
    assert.ok(secret, 'the console keeps its secret in the origin’s storage');
    assert.equal((await fetch(`${base}/api/runs/${runId}/events`, { headers: { cookie } })).status, 401, 'the cookie alone opens nothing');
    const stream = await (await fetch(`${base}/api/runs/${runId}/events`, { headers: { cookie, authorization: `Bearer ${secret}` } })).text();
    assert.match(stream, /event: check/);
    assert.match(stream, /event: end/);

    // Nothing went wrong in the browser.
    assert.deepEqual(watched.problems, []);
    assert.deepEqual(watched.dialogs, []);
    assert.deepEqual(await cspViolations(page), []);

    // The token was printed once, and nowhere since, up to the server's stop; the reference's secret nowhere at all.
    await stopProcess(serve.child);
    const answered = await Promise.all(answers);
    assert.ok(answered.length >= 15, `the browser's answers: ${answered.length}`);
    assert.equal(serve.stdout().split(token).length - 1, 1, 'printed once');
    for (const [where, text] of [
      ['the server\'s stdout after the first print', serve.stdout().slice(serve.stdout().indexOf(token) + token.length)],
      ['the server\'s stderr', serve.stderr()],
      ['the event stream', stream],
      ...pageHtml.map((html, i) => [`page ${i}`, html] as const),
      ...answered.map((text) => [text.slice(0, text.indexOf(':\n')), text] as const),
    ] as const) {
      assert.ok(!text.includes(token), `the token appears in ${where}`);
      assert.ok(!text.includes(clientSecret), `the reference's secret appears in ${where}`);
    }
    assert.deepEqual(filesHolding(extracted, clientSecret), [], 'the bundle holds no secret');
    assert.deepEqual(filesHolding(data, clientSecret), [], 'the store holds no secret');
    assert.deepEqual(carriedSecret, ['POST /api/doctor', 'POST /api/runs'], 'the secret went with Check and the run only');
    t.diagnostic(`the certifiable run: ${rows} checks in ${Date.parse(finished.finishedAt!) - Date.parse(finished.startedAt!)} ms; the third shown ${shownAfterMs} ms after it started`);
    t.diagnostic(`${Math.round(performance.now() - started)} ms from the first start to the server's stop, every assertion made`);
  } finally {
    await browser?.close().catch(() => {});
    await Promise.all([stopProcess(serve?.child), stopProcess(reference?.child)]);
    for (const dir of [data, downloads]) rmSync(dir, { recursive: true, force: true });
  }
});
