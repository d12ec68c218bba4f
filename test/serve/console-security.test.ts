// The console's defences, on a real Fastify server on 127.0.0.1 with the
// fake services: no page or endpoint without a session (pages redirect to
// /login, JSON endpoints answer 401); no state change without the session's
// CSRF token, or from another origin; the session cookie's flags and expiry;
// the Content-Security-Policy on every page, and no violation of it in
// Chromium; user-supplied text (names, profile values, check titles and
// reasons) rendered as text; no path traversal through the console's routes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { readFileSync, rmSync } from 'node:fs';
import type { Browser } from '@playwright/test';
import { launchChromium } from '../report/support/browser.ts';
import { makePki } from '../support/tls.ts';
import { startConsole, type RunningConsole } from './support/console-server.ts';
import { FAKE_TOKEN } from './support/fake-services.ts';
import { cspViolations, signIn, watchedPage } from './support/console-page.ts';

const STRICT_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; frame-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const HOSTILE_NAME = '<img src=x onerror=alert(1)>';
const HOSTILE_TITLE = '<img src=x onerror=alert(5)> check';
const HOSTILE_REASON = '<script>alert(6)</script><b>bold</b>';
const HOSTILE_PROFILE = `{
  "name": "<img src=x onerror=alert(2)>",
  "baseUrl": "https://x.example/<script>alert(3)</script>",
  "<img src=x onerror=alert(4)>": "</textarea><svg onload=alert(7)>"
}
`;

let server: RunningConsole;
let browser: Browser | undefined;

before(async () => {
  server = await startConsole({
    fake: {
      checkIntervalMs: 100,
      checksPerRun: 3,
      checkVerdict: (_ordinal, index) => (index === 2 ? 'FAIL' : 'PASS'),
      decorateCheck: (_check, _ordinal, index) => (index === 2 ? { title: HOSTILE_TITLE, reason: HOSTILE_REASON } : {}),
    },
  });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request sent as written (no URL normalisation, no redirect followed). */
function raw(base: string, method: string, path: string, options: { headers?: Record<string, string>; body?: string; ca?: Buffer } = {}): Promise<Answer> {
  const url = new URL(base);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send({ host: url.hostname, port: url.port, method, path, headers: options.headers, ca: options.ca }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

interface SignedIn {
  cookie: string;
  csrf: string;
  setCookie: string;
}

async function signInByForm(base: string, options: { ca?: Buffer } = {}): Promise<SignedIn> {
  const answer = await raw(base, 'POST', '/login', {
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
    body: new URLSearchParams({ token: FAKE_TOKEN, next: '/' }).toString(),
    ca: options.ca,
  });
  assert.equal(answer.status, 303, answer.body);
  const setCookie = String(answer.headers['set-cookie']);
  const cookie = setCookie.split(';')[0]!;
  const shell = await raw(base, 'GET', '/', { headers: { cookie }, ca: options.ca });
  const csrf = /<meta name="ptas-csrf" content="([^"]+)">/.exec(shell.body)?.[1];
  assert.ok(csrf, 'the shell carries the CSRF token');
  return { cookie, csrf, setCookie };
}

const json = (session: SignedIn, extra: Record<string, string> = {}) => ({ cookie: session.cookie, 'content-type': 'application/json', ...extra });

test('pages without a session redirect to the login page, which brings the user back; JSON endpoints answer 401', async () => {
  for (const path of ['/', '/console/implementations/new', '/console/implementations/acme', '/console/runs/AAAAAAAAAAAAAAAAAAAAAA', '/console/runs/AAAAAAAAAAAAAAAAAAAAAA/report', '/console/runs/AAAAAAAAAAAAAAAAAAAAAA/bundle']) {
    const answer = await raw(server.url, 'GET', path);
    assert.equal(answer.status, 303, path);
    assert.equal(answer.headers.location, `/login?next=${encodeURIComponent(path)}`, path);
  }
  for (const [method, path] of [
    ['GET', '/console/api/implementations'],
    ['GET', '/console/api/implementations/acme'],
    ['GET', '/console/api/runs/AAAAAAAAAAAAAAAAAAAAAA'],
    ['GET', '/console/api/runs/AAAAAAAAAAAAAAAAAAAAAA/events'],
    ['GET', '/console/api/profile-schema'],
    ['POST', '/console/api/implementations'],
    ['POST', '/console/api/doctor'],
  ] as const) {
    const answer = await raw(server.url, method, path, { headers: { 'content-type': 'application/json' }, body: method === 'POST' ? '{}' : undefined });
    assert.equal(answer.status, 401, `${method} ${path}`);
    assert.match(String(answer.headers['content-type']), /application\/json/);
    assert.deepEqual(Object.keys(JSON.parse(answer.body) as object), ['error']);
  }
  const bad = await raw(server.url, 'POST', '/login', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'token=not-a-token' });
  assert.equal(bad.status, 401);
  assert.equal(bad.headers['set-cookie'], undefined);
  assert.match(bad.body, /not valid/);
  // "next" never leaves the console.
  for (const next of ['//evil.example/', 'https://evil.example/', '/\\evil.example']) {
    const answer = await raw(server.url, 'POST', '/login', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: FAKE_TOKEN, next }).toString() });
    assert.equal(answer.headers.location, '/', next);
  }
});

test('the session cookie is HttpOnly and SameSite=Strict, Secure over TLS, and ends at sign-out and when idle', async () => {
  const plain = await signInByForm(server.url);
  const flags = plain.setCookie.split(';').map((f) => f.trim());
  assert.ok(flags.includes('HttpOnly'), plain.setCookie);
  assert.ok(flags.includes('SameSite=Strict'), plain.setCookie);
  assert.ok(flags.includes('Path=/'), plain.setCookie);
  assert.ok(!flags.includes('Secure'), 'not Secure over plain http: the browser would drop it');
  assert.match(plain.cookie, /^ptas_console=[A-Za-z0-9_-]{43}$/, '32 random bytes');

  // Sign-out needs the CSRF token too, then the session is gone.
  assert.equal((await raw(server.url, 'POST', '/logout', { headers: { cookie: plain.cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: '' })).status, 403);
  const out = await raw(server.url, 'POST', '/logout', { headers: { cookie: plain.cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: `_csrf=${plain.csrf}` });
  assert.equal(out.status, 303);
  assert.match(String(out.headers['set-cookie']), /Max-Age=0/);
  assert.equal((await raw(server.url, 'GET', '/console/api/implementations', { headers: { cookie: plain.cookie } })).status, 401);

  const pki = makePki();
  const tls = await startConsole({ https: { cert: readFileSync(pki.serverCert), key: readFileSync(pki.serverKey) }, console: { sessions: { idleMs: 400 } } });
  try {
    const ca = readFileSync(pki.caCert);
    const secure = await signInByForm(tls.url, { ca });
    assert.ok(secure.setCookie.split(';').map((f) => f.trim()).includes('Secure'), secure.setCookie);
    assert.equal((await raw(tls.url, 'GET', '/console/api/implementations', { headers: { cookie: secure.cookie }, ca })).status, 200);
    await new Promise((resolve) => setTimeout(resolve, 600));
    assert.equal((await raw(tls.url, 'GET', '/console/api/implementations', { headers: { cookie: secure.cookie }, ca })).status, 401, 'idle beyond its limit: ended');
  } finally {
    await tls.close();
    rmSync(pki.dir, { recursive: true, force: true });
  }
});

test('every state-changing request needs the session’s CSRF token and the console’s own origin', async () => {
  const session = await signInByForm(server.url);
  const other = await signInByForm(server.url);
  const created = await raw(server.url, 'POST', '/console/api/implementations', { headers: json(session, { 'x-csrf-token': session.csrf }), body: JSON.stringify({ name: 'CSRF target', profileText: '{ "baseUrl": "https://csrf.example" }' }) });
  assert.equal(created.status, 201, created.body);
  const id = (JSON.parse(created.body) as { id: string }).id;
  const started = await raw(server.url, 'POST', `/console/api/implementations/${id}/runs`, { headers: json(session, { 'x-csrf-token': session.csrf }), body: '{}' });
  assert.equal(started.status, 201, started.body);
  const runId = (JSON.parse(started.body) as { id: string }).id;

  const stateChanging: Array<[string, string, string | undefined]> = [
    ['POST', '/console/api/implementations', JSON.stringify({ name: 'x', profileText: '{}' })],
    ['PUT', `/console/api/implementations/${id}`, JSON.stringify({ name: 'renamed', profileText: '{}' })],
    ['POST', `/console/api/implementations/${id}/runs`, '{}'],
    ['POST', `/console/api/runs/${runId}/cancel`, undefined],
    ['POST', '/console/api/doctor', JSON.stringify({ profileText: '{}' })],
  ];
  for (const [method, path, body] of stateChanging) {
    const headers = body === undefined ? { cookie: session.cookie } : json(session);
    const cases: Array<[string, Record<string, string>]> = [
      ['no token', headers],
      ['a wrong token', { ...headers, 'x-csrf-token': 'x'.repeat(43) }],
      ['another session’s token', { ...headers, 'x-csrf-token': other.csrf }],
      ['another origin', { ...headers, 'x-csrf-token': session.csrf, origin: 'https://evil.example' }],
      ['a sandboxed frame (Origin: null)', { ...headers, 'x-csrf-token': session.csrf, origin: 'null' }],
    ];
    for (const [what, h] of cases) {
      const answer = await raw(server.url, method, path, { headers: h, body });
      assert.equal(answer.status, 403, `${method} ${path} with ${what}: ${answer.body}`);
    }
  }
  const record = await server.fake.implementations.get(id);
  assert.equal(record?.name, 'CSRF target', 'nothing changed');
  assert.equal((await server.fake.runs.list(id)).length, 1, 'no run started');
  assert.equal((await server.fake.runs.get(runId))?.status !== 'cancelled', true, 'not cancelled');
  assert.equal(server.fake.doctored.length, 0, 'the doctor was not called');

  // With the token, from its own origin, the same requests go through.
  const renamed = await raw(server.url, 'PUT', `/console/api/implementations/${id}`, { headers: json(session, { 'x-csrf-token': session.csrf, origin: server.url }), body: JSON.stringify({ name: 'renamed', profileText: '{}' }) });
  assert.equal(renamed.status, 200, renamed.body);
  const cancelled = await raw(server.url, 'POST', `/console/api/runs/${runId}/cancel`, { headers: { cookie: session.cookie, 'x-csrf-token': session.csrf } });
  assert.equal(cancelled.status, 200, cancelled.body);
  // Signing in from another site's form is refused too (login CSRF).
  const foreign = await raw(server.url, 'POST', '/login', { headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' }, body: `token=${FAKE_TOKEN}` });
  assert.equal(foreign.status, 403);
});

test('every page carries the Content-Security-Policy; the shell’s adds a fresh style nonce; a report keeps its own, framable by the console only', async () => {
  const session = await signInByForm(server.url);
  const created = await raw(server.url, 'POST', '/console/api/implementations', { headers: json(session, { 'x-csrf-token': session.csrf }), body: JSON.stringify({ name: 'Policy', profileText: '{ "baseUrl": "https://policy.example" }' }) });
  const id = (JSON.parse(created.body) as { id: string }).id;
  const run = (await server.fake.runs.start(id, { load: false })).id;
  while ((await server.fake.runs.get(run))?.status !== 'finished') await new Promise((resolve) => setTimeout(resolve, 100));

  const nonces = new Set<string>();
  for (const path of ['/', '/console/implementations/new', `/console/implementations/${id}`, `/console/runs/${run}`]) {
    const answer = await raw(server.url, 'GET', path, { headers: { cookie: session.cookie } });
    assert.equal(answer.status, 200, path);
    const policy = String(answer.headers['content-security-policy']);
    const nonce = /style-src 'self' 'nonce-([A-Za-z0-9+/=]{24})'/.exec(policy)?.[1];
    assert.ok(nonce, `${path}: ${policy}`);
    nonces.add(nonce);
    assert.equal(policy.replace(` 'nonce-${nonce}'`, ''), STRICT_POLICY, path);
    assert.equal(answer.headers['x-frame-options'], 'DENY');
    assert.equal(answer.headers['x-content-type-options'], 'nosniff');
    assert.doesNotMatch(answer.body, /<script>|<script [^>]*>[^<]|\son[a-z]+=|style=/i, `${path}: no inline script, handler or style`);
  }
  assert.equal(nonces.size, 4, 'a nonce per response');
  for (const path of ['/login', '/console/nowhere', '/console/runs/..%2F..%2Fetc%2Fpasswd', '/assets/nothing.js']) {
    const answer = await raw(server.url, 'GET', path, { headers: { cookie: session.cookie } });
    assert.equal(answer.headers['content-security-policy'], STRICT_POLICY, path);
  }
  for (const path of ['/console/api/implementations', `/console/api/runs/${run}`]) {
    const answer = await raw(server.url, 'GET', path, { headers: { cookie: session.cookie } });
    assert.equal(answer.headers['content-security-policy'], STRICT_POLICY, path);
    assert.equal(answer.headers['cache-control'], 'no-store', path);
  }
  const report = await raw(server.url, 'GET', `/console/runs/${run}/report`, { headers: { cookie: session.cookie } });
  assert.equal(report.status, 200);
  const policy = String(report.headers['content-security-policy']);
  const own = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(report.body)![1]!;
  assert.equal(policy, `${own}; frame-ancestors 'self'; sandbox allow-scripts allow-downloads`);
  assert.match(policy, /^default-src 'none'; script-src 'sha256-/);
});

test('path traversal through the console’s routes finds nothing', async () => {
  const session = await signInByForm(server.url);
  const paths = [
    '/console/runs/..%2F..%2Fetc%2Fpasswd',
    '/console/runs/..%2F..%2Fetc%2Fpasswd/report',
    '/console/runs/%2e%2e%2f%2e%2e%2fetc%2fpasswd/bundle',
    '/console/runs/../../etc/passwd',
    '/console/implementations/..%2F..%2Fpackage.json',
    '/console/api/runs/..%2F..%2Fetc%2Fpasswd',
    '/console/api/runs/..%2F..%2Fetc%2Fpasswd/events',
    '/console/api/implementations/..%2F..%2Fpackage.json',
    '/console/api/implementations/..%2F..%2Fpackage.json/runs',
    '/console/api/runs/AAAA/compare?baseline=..%2F..%2Fetc%2Fpasswd',
    '/assets/..%2F..%2Fpackage.json',
    '/assets/../../package.json',
    '/assets/%2e%2e/%2e%2e/package.json',
  ];
  for (const path of paths) {
    const answer = await raw(server.url, 'GET', path, { headers: { cookie: session.cookie } });
    assert.ok(answer.status === 400 || answer.status === 404, `${path} answered ${answer.status}`);
    assert.doesNotMatch(answer.body, /root:|"name": "ptas-conformance"/, path);
  }
});

test('names, profile values and check titles render as text in Chromium, with no policy violation on any page', async () => {
  const impl = await server.fake.implementations.create({ name: HOSTILE_NAME, profileText: HOSTILE_PROFILE });
  browser = await launchChromium();
  const { page, problems, dialogs } = await watchedPage(browser);
  const noMarkupRan = async (where: string) => {
    const found = (await page.evaluate(`({
      images: document.querySelectorAll('img').length,
      scripts: document.querySelectorAll('script').length,
      svgs: [...document.querySelectorAll('svg')].filter((s) => !s.classList.contains('sparkline')).length,
      bold: document.querySelectorAll('main b').length,
    })`)) as Record<string, number>;
    assert.deepEqual(found, { images: 0, scripts: 1, svgs: 0, bold: 0 }, where);
  };

  await signIn(page, server.url, FAKE_TOKEN);
  const row = page.locator(`tr[data-implementation="${impl.id}"]`);
  assert.equal(await row.locator('td.name a').textContent(), HOSTILE_NAME);
  assert.equal(await row.locator('td.base-url').textContent(), 'https://x.example/<script>alert(3)</script>');
  await noMarkupRan('the implementations page');

  await row.locator('td.name a').click();
  await page.waitForSelector('body[data-ready="true"] .cm-content');
  assert.equal(await page.textContent('h1'), HOSTILE_NAME);
  assert.equal(await page.inputValue('#implementation-name'), HOSTILE_NAME);
  assert.equal(await page.textContent('.cm-content'), HOSTILE_PROFILE.replace(/\n/g, ''), 'the profile as typed');
  await page.locator('.cm-lintRange-error').first().waitFor();
  await page.click('.cm-content');
  await page.keyboard.press('Control+Shift+M');
  await page.locator('.cm-panel-lint .cm-diagnosticText').first().waitFor();
  assert.ok((await page.locator('.cm-panel-lint .cm-diagnosticText').allTextContents()).some((m) => m.includes('<img src=x onerror=alert(4)>')), 'the linter quotes the key as text');
  await page.click('#check');
  await page.waitForSelector('table.doctor');
  assert.match((await page.textContent('table.doctor tr[data-outcome="PROBLEM"] td.problem')) ?? '', /<script>alert\(3\)<\/script>/);
  await noMarkupRan('the implementation page');

  await page.click('#run-form button[type="submit"]');
  await page.waitForURL(/\/console\/runs\//);
  await page.locator('#run-verdict .badge').waitFor({ timeout: 15_000 });
  const hostileRow = page.locator('.check-row[data-verdict="FAIL"]');
  assert.match((await hostileRow.locator('.check-title').textContent()) ?? '', /^<img src=x onerror=alert\(5\)> check$/);
  assert.equal(await hostileRow.locator('td.reason').textContent(), HOSTILE_REASON);
  await page.frameLocator('#report').locator('body[data-ready="true"]').waitFor({ timeout: 20_000 });
  await noMarkupRan('the run page');

  assert.deepEqual(dialogs, []);
  assert.deepEqual(problems, []);
  assert.deepEqual(await cspViolations(page), []);
});
