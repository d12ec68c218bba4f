// Issue 28: the console's session cookie reaches every other web service on
// 127.0.0.1. Cookies are not separated by port, and another port of the same
// host is the same site, so SameSite=Strict does not stop it: a certifier
// signed in to the console who opens the implementation under test at
// 127.0.0.1:8080 hands it `ptas_console=…`. Here, on real processes: `ptas
// serve` as the command line starts it, a small node:http server on another
// port of 127.0.0.1 that records the Cookie header it receives, and Debian's
// Chromium. The certifier signs in, the lab holds an implementation and a
// finished run of the bundled reference; the browser opens the other port's
// page, which captures the cookie; the cookie is then replayed with plain
// fetch to every route that reads data or acts (the /api routes the
// console's pages call with their session, a run's event stream, its report
// and bundle, the tickets for them, the console's session endpoint,
// sign-out), alone and with whatever the console's shell page holds
// (the page a cookie fetches: an old console put its CSRF token there).
// Each must refuse (401; a report or bundle 401 or 404). The positive half:
// the same routes answer the browser that signed in (its secret from its
// own origin's storage, which the other port cannot read), the report shows
// in its frame and the bundle downloads, and after Sign out the cookie and
// the secret together open nothing.
// The test is its own: it needs nothing the fix added, so against the code
// before the fix it fails where the replay succeeds.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { launchChromium } from '../report/support/browser.ts';
import { startServeProcess, type ServeProcess } from '../serve/support.ts';
import { stopProcess } from '../support/processes.ts';

const IMPLEMENTATION = 'replay-target';
/** A profile whose runs end at once (INCOMPLETE: no client id), so a replayed "start" costs nothing. */
/** Its secret from the server's environment, as its operator allows (--secret-env): Check, which takes no secret, gets as far as the target. */
const PROFILE = '{ "baseUrl": "http://127.0.0.1:9", "credentials": { "clientId": "replay", "clientSecret": "env:REPLAY_CLIENT_SECRET" } }\n';
const STORAGE_KEY = 'ptas-console-session';

let data: string;
let serve: ServeProcess;
let base: string;
let token: string;
let elsewhere: Server;
let elsewhereUrl: string;
/** The Cookie header of each request the other port received. */
const captured: string[] = [];
let browser: Browser;
let context: BrowserContext;
let page: Page;
let runId: string;
/** The cookie as the other port received it. */
let stolen: string;


/** The API for CI, with the token `ptas serve` printed (the lab's own view, to check what the replay did or did not do). */
async function api(method: string, route: string, body?: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(`${base}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : undefined };
}

before(async () => {
  data = mkdtempSync(path.join(os.tmpdir(), 'ptas-cookie-replay-'));
  elsewhere = createServer((request, response) => {
    captured.push(request.headers.cookie ?? '');
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>the implementation under test</title><p>Another service on this host.</p>');
  });
  await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
  elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
  [serve, browser] = await Promise.all([startServeProcess(data, { REPLAY_CLIENT_SECRET: 'replay-secret-value' }, ['--secret-env', 'REPLAY_CLIENT_SECRET']), launchChromium()]);
  base = serve.url;
  assert.ok(serve.token, `ptas serve printed no first-run token:\n${serve.stdout()}`);
  token = serve.token;
  assert.notEqual(new URL(base).port, new URL(elsewhereUrl).port);
  context = await browser.newContext({ acceptDownloads: true });
  page = await context.newPage();
});

after(async () => {
  await browser?.close().catch(() => {});
  await stopProcess(serve?.child);
  elsewhere?.closeAllConnections();
  await new Promise((resolve) => elsewhere?.close(resolve));
  if (data) rmSync(data, { recursive: true, force: true });
});

test('a certifier signs in to the console; the lab holds an implementation and a finished run of the reference', { timeout: 150_000 }, async () => {
  await page.goto(`${base}/`);
  await page.waitForURL(/\/login\?next=/);
  await page.fill('#token', token);
  await Promise.all([page.waitForURL((url) => !url.pathname.startsWith('/login')), page.click('button[type=submit]')]);
  await page.waitForSelector('body[data-ready="true"]');

  const created = await api('PUT', `/api/implementations/${IMPLEMENTATION}`, { name: 'Replay target', profileText: PROFILE });
  assert.equal(created.status, 201, JSON.stringify(created.json));

  // A short run of the bundled reference, started from its page in the console.
  await page.goto(`${base}/console/implementations/reference`);
  await page.waitForSelector('body[data-ready="true"] #run-form');
  await page.fill('#run-form input[name="grep"]', '@area:auth');
  await page.click('#run-form button[type="submit"]');
  await page.waitForURL(/\/console\/runs\/[A-Za-z0-9_-]+$/);
  runId = new URL(page.url()).pathname.split('/').pop()!;
  await page.waitForSelector('#run-verdict', { timeout: 120_000 });
  const run = await api('GET', `/api/runs/${runId}`);
  assert.equal(run.json.status, 'finished');
  assert.equal(run.json.verdict, 'CONFORMANT');
});

test('another port of this host receives the console’s cookie (SameSite does not separate ports), but cannot read the console’s storage', async () => {
  await page.goto(`${elsewhereUrl}/`);
  assert.match(await page.textContent('p') ?? '', /Another service/);
  const cookies = await context.cookies(base);
  const session = cookies.find((c) => c.name === 'ptas_console');
  assert.ok(session, 'the console set its cookie');
  assert.equal(session.httpOnly, true);
  assert.equal(session.sameSite, 'Strict');
  const header = captured.at(-1) ?? '';
  assert.ok(header.includes(`ptas_console=${session.value}`), `the other port received: ${JSON.stringify(header)}`);
  stolen = header;
  // What a script of that origin sees: no cookie (HttpOnly), nothing in its storage (another origin's).
  assert.equal(await page.evaluate('document.cookie'), '');
  assert.equal(await page.evaluate(`localStorage.getItem(${JSON.stringify(STORAGE_KEY)})`), null);
  assert.equal(await page.evaluate('localStorage.length'), 0);
});

interface Attempt {
  what: string;
  status: number;
}

/** Long attribute values of a page: whatever it might hold that authorizes (a CSRF token, a secret, a nonce). */
function tokensIn(html: string): string[] {
  return [...new Set([...html.matchAll(/(?:content|value|nonce|data-[a-z-]+)="([A-Za-z0-9_+/=.-]{16,})"/g)].map((m) => m[1]!))];
}

test('replayed, the captured cookie opens nothing: no API route the console calls, session endpoint, event stream, report, bundle, ticket or sign-out, with or without what the shell page holds', { timeout: 60_000 }, async () => {
  assert.ok(stolen, 'the cookie was captured');
  const before = await api('GET', '/api/runs');
  // The shell page, as a cookie fetches it: whatever it holds is tried as a CSRF token and as a bearer.
  const shell = await fetch(`${base}/`, { headers: { cookie: stolen } });
  const shellHtml = await shell.text();
  const held = tokensIn(shellHtml);

  const attempts: Attempt[] = [];
  const replay = async (method: string, route: string, body?: unknown): Promise<void> => {
    const variants: Array<[string, Record<string, string>]> = [['the cookie alone', {}]];
    for (const value of held) variants.push([`the cookie and the shell's "${value.slice(0, 8)}…" as CSRF token and bearer`, { 'x-csrf-token': value, authorization: `Bearer ${value}` }]);
    for (const [how, extra] of variants) {
      // A replay names the console's own origin, as a browser on it would: the Origin check is not what must stop it.
      const headers: Record<string, string> = { cookie: stolen, ...extra, ...(method === 'GET' ? {} : { origin: base }) };
      let url = route;
      if (/\/(report|bundle)$/.test(route) && extra.authorization) url = `${route}?ticket=${encodeURIComponent(extra.authorization.slice('Bearer '.length))}`;
      let payload: string | undefined;
      if (body !== undefined) {
        headers['content-type'] = 'application/json';
        payload = JSON.stringify(body);
        if (route === '/logout') {
          headers['content-type'] = 'application/x-www-form-urlencoded';
          payload = extra['x-csrf-token'] ? `_csrf=${encodeURIComponent(extra['x-csrf-token'])}` : '';
        }
      }
      const response = await fetch(`${base}${url}`, { method, headers, body: payload, redirect: 'manual', signal: AbortSignal.timeout(20_000) });
      // Read whole, as an attacker would (an event stream of a finished run ends; a download cut short would be another matter).
      await response.arrayBuffer();
      attempts.push({ what: `${method} ${url.replace(/ticket=[^&]+/, 'ticket=…')} with ${how}`, status: response.status });
    }
  };

  // The routes the console's pages call (the API, with their session), the console's own session endpoint, the run's files.
  const run = `/api/runs/${runId}`;
  await replay('GET', '/console/api/session');
  await replay('GET', '/api/implementations');
  await replay('GET', `/api/implementations/${IMPLEMENTATION}`);
  await replay('GET', `/api/runs?implementation=${IMPLEMENTATION}`);
  await replay('GET', '/api/runs?implementation=reference');
  await replay('GET', '/api/runs');
  await replay('GET', run);
  await replay('GET', `${run}/events`);
  await replay('GET', `${run}/compare/${runId}`);
  await replay('GET', `${run}/reviews`);
  await replay('GET', `${run}/bundle`);
  await replay('GET', '/api/starter');
  await replay('GET', '/api/profile-schema');
  await replay('GET', `/console/runs/${runId}/report`);
  await replay('GET', `/console/runs/${runId}/bundle`);
  await replay('POST', `${run}/tickets`, { kind: 'report' });
  await replay('POST', `${run}/tickets`, { kind: 'bundle' });
  await replay('POST', '/api/doctor', { profileText: PROFILE });
  await replay('PUT', `/api/implementations/${IMPLEMENTATION}`, { name: 'Replayed', profileText: PROFILE });
  await replay('POST', '/api/implementations', { name: 'Replayed too', profileText: PROFILE });
  await replay('POST', '/api/runs', { implementation: IMPLEMENTATION });
  await replay('POST', `${run}/cancel`);
  await replay('POST', `${run}/share`);
  // Signing out last: an old console's sign-out form, and the new sign-out.
  await replay('DELETE', '/console/api/session');
  await replay('POST', '/logout', {});

  const opened = attempts.filter((a) => a.status < 400).map((a) => `${a.what} → ${a.status}`);
  assert.deepEqual(opened, [], `the replayed cookie opened ${opened.length} of ${attempts.length} requests:\n${opened.join('\n')}`);
  const notRefused = attempts.filter((a) => !(a.status === 401 || (a.status === 404 && /\/(report|bundle)|\/logout/.test(a.what)))).map((a) => `${a.what} → ${a.status}`);
  assert.deepEqual(notRefused, [], 'each is refused as unauthorized');

  // The shell answered, and holds nothing that opened anything (tried above); the lab is as it was.
  assert.equal(shell.status, 200);
  assert.doesNotMatch(shellHtml, /ptas-csrf|_csrf|ptas-session-secret/);
  assert.equal((await api('GET', `/api/implementations/${IMPLEMENTATION}`)).json.name, 'Replay target', 'not renamed');
  assert.deepEqual((await api('GET', '/api/implementations')).json.map((i: { id: string }) => i.id).sort(), [IMPLEMENTATION, 'reference'].sort(), 'nothing created');
  assert.deepEqual((await api('GET', '/api/runs')).json, before.json, 'no run started or changed');
});

test('the positive half: the signed-in browser reaches every one of those routes, sees the report in its frame and downloads the bundle; its secret is in no page', { timeout: 120_000 }, async () => {
  await page.goto(`${base}/console/runs/${runId}`);
  await page.waitForSelector('body[data-ready="true"]');
  const secret = (await page.evaluate(`localStorage.getItem(${JSON.stringify(STORAGE_KEY)})`)) as string | null;
  assert.match(secret ?? '', /^[A-Za-z0-9_-]{43}$/, 'the console keeps its secret in its own origin’s storage');

  // Every route of the replay, as the console's script calls it: the cookie goes by itself, the secret as the bearer.
  const answered = (await page.evaluate(
    `(async ({ runId, implementation, profile, key }) => {
      const auth = { authorization: 'Bearer ' + localStorage.getItem(key) };
      const out = [];
      const call = async (method, route, body) => {
        const response = await fetch(route, { method, headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
        const text = await response.text();
        out.push({ route: method + ' ' + route, status: response.status, text });
        return text;
      };
      const run = '/api/runs/' + runId;
      await call('GET', '/console/api/session');
      await call('GET', '/api/implementations');
      await call('GET', '/api/implementations/' + implementation);
      await call('GET', '/api/runs?implementation=' + implementation);
      await call('GET', '/api/runs?implementation=reference');
      await call('GET', run);
      await call('GET', run + '/events');
      await call('GET', run + '/compare/' + runId);
      await call('GET', '/api/starter');
      await call('GET', '/api/profile-schema');
      for (const kind of ['report', 'bundle']) {
        const { url } = JSON.parse(await call('POST', run + '/tickets', { kind }));
        const file = await fetch(url);
        out.push({ route: 'GET ' + url.replace(/ticket=.*/, 'ticket=…'), status: file.status, text: kind === 'report' ? await file.text() : String((await file.arrayBuffer()).byteLength) });
        out.push({ route: 'GET ' + url.replace(/ticket=.*/, 'ticket=… again'), status: (await fetch(url)).status, text: '' });
      }
      await call('POST', '/api/doctor', { profileText: profile });
      await call('PUT', '/api/implementations/' + implementation, { name: 'Replay target', profileText: profile });
      await call('POST', '/api/implementations', { name: 'Made by the console', profileText: profile });
      const started = JSON.parse(await call('POST', '/api/runs', { implementation }));
      await call('POST', '/api/runs/' + started.id + '/cancel');
      await call('GET', '/api/runs');
      return out;
    })(${JSON.stringify({ runId, implementation: IMPLEMENTATION, profile: PROFILE, key: STORAGE_KEY })})`,
  )) as Array<{ route: string; status: number; text: string }>;
  for (const a of answered) {
    if (a.route.endsWith('again')) assert.equal(a.status, 401, `${a.route}: a ticket is good once`);
    // A narrowed run can end before its cancel arrives: the 409 that says so is the route reached and authorized.
    else if (/^POST \/api\/runs\/[^/]+\/cancel$/.test(a.route) && a.status === 409) assert.match(a.text, /has ended/, `${a.route}: ${a.text.slice(0, 200)}`);
    else assert.ok(a.status >= 200 && a.status < 300, `${a.route}: ${a.status} ${a.text.slice(0, 200)}`);
  }
  assert.equal(answered.length, 22, 'every route was called');
  const text = (route: string) => answered.find((a) => a.route === route)!.text;
  assert.match(text(`GET /api/runs/${runId}/events`), /event: check[\s\S]*event: end/);
  assert.match(text(`GET /console/runs/${runId}/report?ticket=…`), /CONFORMANT/);
  assert.ok(Number(text(`GET /console/runs/${runId}/bundle?ticket=…`)) > 1000, 'the archive');
  assert.equal(JSON.parse(text(`GET /api/runs/${runId}`)).verdict, 'CONFORMANT', 'the run\'s record, with the console session');
  assert.equal(JSON.parse(text('POST /api/implementations')).name, 'Made by the console');

  // The run page as the certifier sees it: the report in its frame, the bundle downloaded.
  await page.frameLocator('#report').locator('body').waitFor({ timeout: 20_000 });
  assert.match((await page.frameLocator('#report').locator('body').textContent()) ?? '', /CONFORMANT/);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-bundle')]);
  assert.equal(download.suggestedFilename(), `ptas-run-${runId}.tar.gz`);
  assert.ok(await download.path());

  // No page a cookie fetches holds the secret.
  for (const route of ['/', `/console/runs/${runId}`, '/login']) {
    const html = await (await fetch(`${base}${route}`, { headers: { cookie: stolen } })).text();
    assert.ok(!html.includes(secret!), `${route} holds the secret`);
  }
  // The captured cookie, now with the secret: the two halves together are the session (which is why the secret stays in the console's origin).
  assert.equal((await fetch(`${base}/api/implementations`, { headers: { cookie: stolen, authorization: `Bearer ${secret}` } })).status, 200);

  // Sign out: the session ends, the browser forgets the secret; the cookie and the secret together open nothing now.
  await page.click('#sign-out');
  await page.waitForURL(/\/login$/);
  assert.equal(await page.evaluate(`localStorage.getItem(${JSON.stringify(STORAGE_KEY)})`), null);
  for (const route of ['/console/api/session', '/api/implementations', '/api/runs']) {
    assert.equal((await fetch(`${base}${route}`, { headers: { cookie: stolen, authorization: `Bearer ${secret}` } })).status, 401, route);
  }
});
