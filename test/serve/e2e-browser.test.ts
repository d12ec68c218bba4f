// The console tried as a new user would, on a fresh clone (issue 23), with
// nothing faked: `ptas serve` and `ptas reference` as child processes of the
// command line, Debian's Chromium driven by Playwright. Open the address
// `ptas serve` printed, sign in with its first-run token, look at the
// bundled reference's page, create an
// implementation from ptas init's starter pointed at the reference (its
// client secret an env: reference set in the server's environment), Check it
// (ptas doctor's table), start a short run (two areas, no load stage), watch
// its checks arrive while it runs, see its verdict and its report, download
// its bundle and `ptas verify` it: every step holds but the required checks,
// which a narrowed run cannot have. On the way: no console error, no
// Content-Security-Policy violation, and the token printed once, never again
// (pages, every answer the browser got, the event stream, the server's
// output up to its stop); the reference's secret nowhere.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from '@playwright/test';
import type { ImplementationRecord, RunRecord } from '../../app/serve/contract.ts';
import { fromRoot } from '../../src/paths.ts';
import { referenceProfile } from '../../reference/profile.ts';
import { launchChromium } from '../report/support/browser.ts';
import { runPtas } from '../support/cli.ts';
import { cspViolations, pasteIntoEditor, secretOf, signIn, watchedPage } from './support/console-page.ts';
import { startServeProcess, type ServeProcess } from './support.ts';
import { stopProcess } from '../support/processes.ts';

interface ReferenceProcess {
  child: ChildProcess;
  url: string;
  clientId: string;
  stdout: () => string;
}

/** `ptas reference --port 0` as a user starts it, its client secret from PTAS_REF_CLIENT_SECRET; resolves once it printed its address and client id. */
function startReferenceProcess(clientSecret: string): Promise<ReferenceProcess> {
  const child = spawn(process.execPath, [fromRoot('bin', 'ptas.js'), 'reference', '--port', '0'], {
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


/** The variable of the serve process's environment the stored profile names (env:E2E_REFERENCE_SECRET), which its operator allows (--secret-env). */
const SECRET_VARIABLE = 'E2E_REFERENCE_SECRET';

/**
 * What the user types over the starter: the reference's own profile (what
 * `ptas reference` says a profile for it says), its secrets as env: references.
 */
function profileFor(reference: ReferenceProcess): string {
  const profile = referenceProfile(reference.url, { clientId: reference.clientId }) as Record<string, any>;
  profile.name = 'Reference (e2e)';
  profile.credentials.clientSecret = `env:${SECRET_VARIABLE}`;
  profile.users.ownLicence.clientSecret = `env:${SECRET_VARIABLE}`;
  delete profile.load;
  return `// ptas init's starter, pointed at the reference started by hand: its own profile, the secret from the server's environment.\n${JSON.stringify(profile, null, 2)}\n`;
}

test('a new user: ptas serve, sign in, an implementation from the starter against ptas reference, Check, a live run, its report, its bundle through ptas verify', { timeout: 180_000 }, async (t) => {
  const started = performance.now();
  const clientSecret = `e2e-${randomBytes(18).toString('hex')}`;
  const data = mkdtempSync(path.join(os.tmpdir(), 'ptas-e2e-data-'));
  const downloads = mkdtempSync(path.join(os.tmpdir(), 'ptas-e2e-download-'));
  let reference: ReferenceProcess | undefined;
  let serve: ServeProcess | undefined;
  let browser: Browser | undefined;
  try {
    [reference, serve, browser] = await Promise.all([startReferenceProcess(clientSecret), startServeProcess(data, { [SECRET_VARIABLE]: clientSecret }, ['--secret-env', SECRET_VARIABLE]), launchChromium()]);
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

    // New implementation: the editor holds ptas init's starter.
    await page.click('header a[href="/console/implementations/new"]');
    await page.waitForSelector('body[data-ready="true"] .cm-content');
    const starter = (await page.textContent('.cm-content')) ?? '';
    assert.match(starter, /"baseUrl"/);
    assert.match(starter, /"clientSecret": "env:PTAS_CLIENT_SECRET"/);
    await snapshot('new implementation');

    // Point it at the reference and create it.
    await page.fill('#implementation-name', 'Reference (e2e)');
    await pasteIntoEditor(page, profileFor(reference));
    await page.click('#save');
    await page.waitForURL(/\/console\/implementations\/reference-e2e$/);
    await page.waitForSelector('body[data-ready="true"] #run-form');
    const stored = await api<ImplementationRecord>('/api/implementations/reference-e2e');
    assert.equal(stored.profileText, profileFor(reference), 'stored as typed');
    await snapshot('implementation');

    // Check: ptas doctor against the reference, every operation OK.
    await page.click('#check');
    await page.waitForSelector('#doctor table.doctor, #doctor .notice', { timeout: 30_000 });
    const outcomes = (await page.evaluate("[...document.querySelectorAll('#doctor tr[data-outcome]')].map((r) => r.dataset.outcome + ' ' + r.dataset.key)")) as string[];
    assert.ok(outcomes.filter((o) => o.startsWith('OK ')).length >= 3, `the doctor's rows: ${outcomes.join(', ') || (await page.textContent('#doctor'))}`);
    assert.deepEqual(outcomes.filter((o) => o.startsWith('PROBLEM')), [], 'no broken key');
    await snapshot('doctor');

    // Start a short run: two areas by a grep, no load stage.
    await page.fill('#run-form input[name="grep"]', '@area:users|@area:trading');
    assert.equal(await page.isChecked('#run-form input[name="load"]'), true, 'the load stage is on by default');
    await page.uncheck('#run-form input[name="load"]');
    await page.click('#run-form button[type="submit"]');
    await page.waitForURL(/\/console\/runs\/[A-Za-z0-9_-]+$/);
    const runId = new URL(page.url()).pathname.split('/').pop()!;

    // Live: checks arrive while the run runs (the API says so at that moment).
    await page.locator('#checks tr.check-row').nth(2).waitFor({ timeout: 60_000 });
    const whileArriving = await api<RunRecord>(`/api/runs/${runId}`);
    const shownAfterMs = Date.now() - Date.parse(whileArriving.startedAt!);
    assert.equal(whileArriving.status, 'running', 'three checks were shown before the run ended');
    assert.equal(await page.locator('#run-verdict').count(), 0, 'no verdict while it runs');
    await snapshot('run, live');

    // The verdict, the report framed, the bundle.
    await page.waitForSelector('#run-verdict', { timeout: 90_000 });
    const verdict = await page.getAttribute('#run-verdict [data-verdict]', 'data-verdict');
    const finished = await api<RunRecord>(`/api/runs/${runId}`);
    assert.equal(finished.status, 'finished');
    assert.equal(verdict, finished.verdict);
    assert.equal(verdict, 'CONFORMANT', (await page.textContent('main')) ?? '');
    // A green verdict, and beside it what verify will say of the bundle: this narrowed run cannot certify.
    assert.equal(await page.getAttribute('#run-certification', 'data-certifiable'), 'false');
    assert.equal(finished.certification?.certifiable, false);
    const firstGap = finished.certification!.gaps[0]!;
    assert.match(firstGap.problem, /has no verdict \(not run: --grep/);
    assert.ok(((await page.textContent('#certification-gaps')) ?? '').includes(firstGap.fix), 'the page names the fix');
    const rows = await page.locator('#checks tr.check-row').count();
    assert.equal(rows, Object.values(finished.counts ?? {}).reduce((a, n) => a + n, 0), 'one row per check');
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
    const verified = await runPtas(['verify', path.join(extracted, `ptas-run-${runId}`)]);
    // A narrowed run cannot certify: every step holds but the required checks, which names the narrowing.
    const steps = verified.stdout.split('\n').filter((line) => /^[✔✖] /.test(line));
    assert.deepEqual(
      steps.map((line) => line.slice(0, 2) + line.slice(2).split(/\s{2,}/)[0]),
      ['✔ entries', '✔ manifest', '✔ files', '✔ signature', '✔ nonce', '✔ results.json', '✔ junit.xml', '✔ index.html', '✖ required checks'],
      verified.stdout,
    );
    assert.match(steps[5]!, new RegExp(`CONFORMANT, ${rows} checks`));
    assert.match(steps[8]!, /required check \S+ has no verdict \(not run: --grep/);
    assert.match(verified.stderr, /does not hold: results\.json: required check \S+ has no verdict/);
    assert.ok(verified.stderr.includes(`results.json: ${firstGap.problem} (fix: ${firstGap.fix})`), 'verify names the gap the console showed');
    assert.equal(verified.code, 1, verified.stdout + verified.stderr);

    // The run's event stream, as the console serves it (the session's cookie, and its secret from the page's storage as the bearer).
    const cookies = await watched.context.cookies(base);
    const cookie = cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const secret = await secretOf(page);
    assert.ok(secret, 'the console keeps its secret in the origin’s storage');
    assert.equal((await fetch(`${base}/console/api/runs/${runId}/events`, { headers: { cookie } })).status, 401, 'the cookie alone opens nothing');
    const stream = await (await fetch(`${base}/console/api/runs/${runId}/events`, { headers: { cookie, authorization: `Bearer ${secret}` } })).text();
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
    t.diagnostic(`the run: ${rows} checks in ${Date.parse(finished.finishedAt!) - Date.parse(finished.startedAt!)} ms; the third shown ${shownAfterMs} ms after it started`);
    t.diagnostic(`${Math.round(performance.now() - started)} ms from the first start to the server's stop, every assertion made`);
  } finally {
    await browser?.close().catch(() => {});
    await Promise.all([stopProcess(serve?.child), stopProcess(reference?.child)]);
    for (const dir of [data, downloads]) rmSync(dir, { recursive: true, force: true });
  }
});
