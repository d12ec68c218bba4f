// The console's defences, on a real Fastify server on 127.0.0.1 with the
// fake services: no page without a session cookie (pages redirect to
// /login); no endpoint without both halves of a session, the cookie and its
// secret as the bearer (401 JSON), and no report or bundle without the
// cookie and a one-use ticket (401, never a redirect); the secret handed
// over once, in the login's answer, and in no page since; no state change
// from another origin (port included), the login form's included; the
// session cookie's flags and expiry; the Content-Security-Policy on every
// page, and no violation of it in Chromium; user-supplied text (names,
// profile values, check titles and reasons) rendered as text; no path
// traversal through the console's routes.
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
  secret: string;
  setCookie: string;
  /** The login's answer, which hands the secret over. */
  answer: Answer;
}

const SECRET_META = /<meta name="ptas-session-secret" content="([^"]+)">/;

async function signInByForm(base: string, options: { ca?: Buffer; next?: string } = {}): Promise<SignedIn> {
  const answer = await raw(base, 'POST', '/login', {
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
    body: new URLSearchParams({ token: FAKE_TOKEN, next: options.next ?? '/' }).toString(),
    ca: options.ca,
  });
  assert.equal(answer.status, 200, answer.body);
  const setCookie = String(answer.headers['set-cookie']);
  const cookie = setCookie.split(';')[0]!;
  const secret = SECRET_META.exec(answer.body)?.[1];
  assert.ok(secret, 'the login’s answer carries the secret');
  return { cookie, secret, setCookie, answer };
}

/** Both halves of a session: its cookie and its secret as the bearer. */
const both = (session: SignedIn, extra: Record<string, string> = {}) => ({ cookie: session.cookie, authorization: `Bearer ${session.secret}`, ...extra });
const json = (session: SignedIn, extra: Record<string, string> = {}) => both(session, { 'content-type': 'application/json', ...extra });

async function ticket(base: string, session: SignedIn, runId: string, kind: 'report' | 'bundle'): Promise<string> {
  const answer = await raw(base, 'POST', `/console/api/runs/${runId}/tickets`, { headers: json(session), body: JSON.stringify({ kind }) });
  assert.equal(answer.status, 201, answer.body);
  return (JSON.parse(answer.body) as { url: string }).url;
}

async function finishedRun(session: SignedIn, name: string): Promise<{ implementation: string; run: string }> {
  const created = await raw(server.url, 'POST', '/console/api/implementations', { headers: json(session), body: JSON.stringify({ name, profileText: '{ "baseUrl": "https://policy.example" }' }) });
  assert.equal(created.status, 201, created.body);
  const implementation = (JSON.parse(created.body) as { id: string }).id;
  const run = (await server.fake.runs.start(implementation, { load: false })).id;
  while ((await server.fake.runs.get(run))?.status !== 'finished') await new Promise((resolve) => setTimeout(resolve, 100));
  return { implementation, run };
}

const ENDPOINTS: Array<readonly [string, string]> = [
  ['GET', '/console/api/session'],
  ['DELETE', '/console/api/session'],
  ['GET', '/console/api/implementations'],
  ['GET', '/console/api/implementations/acme'],
  ['GET', '/console/api/runs/AAAAAAAAAAAAAAAAAAAAAA'],
  ['GET', '/console/api/runs/AAAAAAAAAAAAAAAAAAAAAA/events'],
  ['POST', '/console/api/runs/AAAAAAAAAAAAAAAAAAAAAA/tickets'],
  ['GET', '/console/api/profile-schema'],
  ['GET', '/console/api/starter'],
  ['POST', '/console/api/implementations'],
  ['POST', '/console/api/doctor'],
];

test('pages without a session redirect to the login page, which brings the user back; endpoints answer 401 JSON; a report or bundle 401, never a redirect', async () => {
  for (const path of ['/', '/console/implementations/new', '/console/implementations/acme', '/console/runs/AAAAAAAAAAAAAAAAAAAAAA']) {
    const answer = await raw(server.url, 'GET', path);
    assert.equal(answer.status, 303, path);
    assert.equal(answer.headers.location, `/login?next=${encodeURIComponent(path)}`, path);
  }
  for (const path of ['/console/runs/AAAAAAAAAAAAAAAAAAAAAA/report', '/console/runs/AAAAAAAAAAAAAAAAAAAAAA/bundle', '/console/runs/AAAAAAAAAAAAAAAAAAAAAA/report?ticket=x']) {
    const answer = await raw(server.url, 'GET', path);
    assert.equal(answer.status, 401, path);
    assert.equal(answer.headers.location, undefined, path);
    assert.equal(answer.headers['referrer-policy'], 'no-referrer', path);
  }
  for (const [method, path] of ENDPOINTS) {
    const answer = await raw(server.url, method, path, { headers: { 'content-type': 'application/json' }, body: method === 'POST' ? '{}' : undefined });
    assert.equal(answer.status, 401, `${method} ${path}`);
    assert.match(String(answer.headers['content-type']), /application\/json/);
    assert.deepEqual(Object.keys(JSON.parse(answer.body) as object), ['error']);
  }
  const bad = await raw(server.url, 'POST', '/login', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'token=not-a-token' });
  assert.equal(bad.status, 401);
  assert.equal(bad.headers['set-cookie'], undefined);
  assert.match(bad.body, /not valid/);
  assert.doesNotMatch(bad.body, SECRET_META);
  // "next" never leaves the console.
  for (const next of ['//evil.example/', 'https://evil.example/', '/\\evil.example']) {
    const answer = await raw(server.url, 'POST', '/login', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: FAKE_TOKEN, next }).toString() });
    assert.match(answer.body, /<main class="login" id="signed-in" data-next="\/">/, next);
  }
});

test('every endpoint wants both halves of one session: the cookie alone, the secret alone, or halves of two sessions open nothing', async () => {
  const session = await signInByForm(server.url);
  const other = await signInByForm(server.url);
  const { implementation, run } = await finishedRun(session, 'Halves');
  const doctored = server.fake.doctored.length;
  const routes: Array<readonly [string, string, string | undefined]> = [
    ['GET', '/console/api/session', undefined],
    ['GET', '/console/api/implementations', undefined],
    ['GET', `/console/api/implementations/${implementation}`, undefined],
    ['GET', `/console/api/implementations/${implementation}/runs`, undefined],
    ['GET', `/console/api/runs/${run}`, undefined],
    ['GET', `/console/api/runs/${run}/events`, undefined],
    ['GET', `/console/api/runs/${run}/compare?baseline=${run}`, undefined],
    ['GET', '/console/api/starter', undefined],
    ['GET', '/console/api/profile-schema', undefined],
    ['POST', `/console/api/runs/${run}/tickets`, JSON.stringify({ kind: 'report' })],
    ['POST', '/console/api/doctor', JSON.stringify({ profileText: '{}' })],
    ['PUT', `/console/api/implementations/${implementation}`, JSON.stringify({ name: 'renamed', profileText: '{}' })],
    ['POST', `/console/api/implementations/${implementation}/runs`, '{}'],
    ['POST', `/console/api/runs/${run}/cancel`, undefined],
    ['DELETE', '/console/api/session', undefined],
  ];
  const content = (body: string | undefined): Record<string, string> => (body === undefined ? {} : { 'content-type': 'application/json' });
  for (const [method, path, body] of routes) {
    const cases: Array<[string, Record<string, string>]> = [
      ['the cookie alone', { cookie: session.cookie }],
      ['the secret alone', { authorization: `Bearer ${session.secret}` }],
      ['the cookie and another session’s secret', { cookie: session.cookie, authorization: `Bearer ${other.secret}` }],
      ['another session’s cookie and the secret', { cookie: other.cookie, authorization: `Bearer ${session.secret}` }],
      ['the cookie and its own id as the bearer', { cookie: session.cookie, authorization: `Bearer ${session.cookie.split('=')[1]}` }],
      ['the cookie and the token as the bearer', { cookie: session.cookie, authorization: `Bearer ${FAKE_TOKEN}` }],
      ['the cookie and the secret as a cookie', { cookie: `${session.cookie}; ptas_console_secret=${session.secret}` }],
    ];
    for (const [what, headers] of cases) {
      const answer = await raw(server.url, method, path, { headers: { ...headers, ...content(body), origin: server.url }, body });
      assert.equal(answer.status, 401, `${method} ${path} with ${what}: ${answer.body}`);
    }
  }
  const record = await server.fake.implementations.get(implementation);
  assert.equal(record?.name, 'Halves', 'nothing changed');
  assert.equal((await server.fake.runs.list(implementation)).length, 1, 'no run started');
  assert.equal(server.fake.doctored.length, doctored, 'the doctor was not called');

  // Both halves of one session: every route answers (sign-out last).
  for (const [method, path, body] of routes) {
    const answer = await raw(server.url, method, path, { headers: { ...both(session), ...content(body), origin: server.url }, body });
    assert.ok(answer.status >= 200 && answer.status < 300, `${method} ${path}: ${answer.status} ${answer.body}`);
  }
  assert.equal((await raw(server.url, 'GET', '/console/api/implementations', { headers: both(session) })).status, 401, 'signed out');
  assert.equal((await raw(server.url, 'GET', '/console/api/implementations', { headers: both(other) })).status, 200, 'the other session goes on');
});

test('the secret is handed over once, in the login’s answer (no-store, the strict policy), and in no page a cookie fetches', async () => {
  const session = await signInByForm(server.url, { next: '/console/implementations/new' });
  assert.equal(session.answer.headers['cache-control'], 'no-store');
  assert.equal(session.answer.headers['content-security-policy'], STRICT_POLICY);
  assert.equal(session.answer.headers.location, undefined, 'not a redirect: a page whose script keeps the secret');
  assert.doesNotMatch(session.answer.body, /<script>|<script [^>]*>[^<]|\son[a-z]+=|style=/i, 'no inline script');
  assert.match(session.answer.body, /<script src="\/assets\/app\.[0-9a-f]{16}\.js" defer><\/script>/, 'the app’s own script');
  assert.match(session.answer.body, /data-next="\/console\/implementations\/new"/);
  assert.match(session.answer.body, /<noscript>/);
  const { run } = await finishedRun(session, 'Handed over');
  const pages = ['/', '/login', '/login?next=%2F', '/console/implementations/new', `/console/runs/${run}`, '/console/nowhere', '/assets/nothing.js'];
  for (const path of pages) {
    const answer = await raw(server.url, 'GET', path, { headers: { cookie: session.cookie } });
    assert.ok(!answer.body.includes(session.secret), `${path} shows the secret`);
    assert.doesNotMatch(answer.body, /ptas-csrf|_csrf|ptas-session-secret/, path);
  }
  // The login form shows even to a browser with a session cookie (a stale cookie must not loop).
  const form = await raw(server.url, 'GET', '/login?next=%2F', { headers: { cookie: session.cookie } });
  assert.equal(form.status, 200);
  assert.match(form.body, /<input id="token"/);
  // A new login from a browser with a session ends that session.
  const again = await raw(server.url, 'POST', '/login', { headers: { cookie: session.cookie, 'content-type': 'application/x-www-form-urlencoded', origin: server.url }, body: `token=${FAKE_TOKEN}` });
  assert.equal(again.status, 200);
  assert.equal((await raw(server.url, 'GET', '/console/api/implementations', { headers: both(session) })).status, 401, 'the old session ended');
});

test('a report or bundle opens with the cookie and a ticket of that session, run and kind, once', async () => {
  const session = await signInByForm(server.url);
  const other = await signInByForm(server.url);
  const { run } = await finishedRun(session, 'Tickets');
  const { run: otherRun } = await finishedRun(session, 'Tickets too');
  for (const kind of ['report', 'bundle'] as const) {
    const url = await ticket(server.url, session, run, kind);
    assert.match(url, new RegExp(`^/console/runs/${run}/${kind}\\?ticket=[A-Za-z0-9_-]{43}$`));
    const opened = await raw(server.url, 'GET', url, { headers: { cookie: session.cookie } });
    assert.equal(opened.status, 200, `${kind}: ${opened.body.slice(0, 200)}`);
    assert.equal(opened.headers['referrer-policy'], 'no-referrer');
    assert.equal((await raw(server.url, 'GET', url, { headers: { cookie: session.cookie } })).status, 401, `${kind}: used`);

    const wrong: Array<[string, string, Record<string, string>]> = [
      ['without the cookie', url, {}],
      ['with another session’s cookie', url, { cookie: other.cookie }],
      ['with the bearer instead of the cookie', url, { authorization: `Bearer ${session.secret}` }],
      ['for another run', url.replace(run, otherRun), { cookie: session.cookie }],
      ['for the other kind', url.replace(`/${kind}?`, `/${kind === 'report' ? 'bundle' : 'report'}?`), { cookie: session.cookie }],
    ];
    for (const [what, wrongUrl, headers] of wrong) {
      const fresh = wrongUrl.replace(/ticket=.*$/, `ticket=${new URL(await ticket(server.url, session, run, kind), server.url).searchParams.get('ticket')}`);
      const answer = await raw(server.url, 'GET', fresh, { headers });
      assert.equal(answer.status, 401, `${kind} ${what}`);
      assert.equal(answer.headers.location, undefined);
    }
    const tried = new URL(await ticket(server.url, session, run, kind), server.url);
    await raw(server.url, 'GET', tried.pathname + tried.search, { headers: {} });
    assert.equal((await raw(server.url, 'GET', tried.pathname + tried.search, { headers: { cookie: session.cookie } })).status, 401, `${kind}: a ticket presented once without the cookie is gone`);
  }
  assert.equal((await raw(server.url, 'POST', '/console/api/runs/AAAAAAAAAAAAAAAAAAAAAA/tickets', { headers: json(session), body: '{"kind":"report"}' })).status, 404);
  assert.equal((await raw(server.url, 'POST', `/console/api/runs/${run}/tickets`, { headers: json(session), body: '{"kind":"results"}' })).status, 400);
  // A signed-out session's tickets go with it.
  const left = await ticket(server.url, session, run, 'report');
  assert.equal((await raw(server.url, 'DELETE', '/console/api/session', { headers: both(session) })).status, 204);
  assert.equal((await raw(server.url, 'GET', left, { headers: { cookie: session.cookie } })).status, 401);
});

test('the session cookie is HttpOnly and SameSite=Strict, Secure over TLS, and ends at sign-out (with the bearer only) and when idle', async () => {
  const plain = await signInByForm(server.url);
  const flags = plain.setCookie.split(';').map((f) => f.trim());
  assert.ok(flags.includes('HttpOnly'), plain.setCookie);
  assert.ok(flags.includes('SameSite=Strict'), plain.setCookie);
  assert.ok(flags.includes('Path=/'), plain.setCookie);
  assert.ok(!flags.includes('Secure'), 'not Secure over plain http: the browser would drop it');
  assert.match(plain.cookie, /^ptas_console=[A-Za-z0-9_-]{43}$/, '32 random bytes');
  assert.notEqual(plain.cookie.split('=')[1], plain.secret);

  // Sign-out needs the bearer: a request with the cookie alone (from this origin even) ends nothing.
  assert.equal((await raw(server.url, 'DELETE', '/console/api/session', { headers: { cookie: plain.cookie, origin: server.url } })).status, 401);
  assert.equal((await raw(server.url, 'POST', '/logout', { headers: { cookie: plain.cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: '' })).status, 404, 'no sign-out form any more');
  assert.equal((await raw(server.url, 'GET', '/console/api/implementations', { headers: both(plain) })).status, 200, 'still signed in');
  const out = await raw(server.url, 'DELETE', '/console/api/session', { headers: both(plain, { origin: server.url }) });
  assert.equal(out.status, 204);
  assert.match(String(out.headers['set-cookie']), /^ptas_console=; .*Max-Age=0/);
  assert.equal((await raw(server.url, 'GET', '/console/api/implementations', { headers: both(plain) })).status, 401);

  const pki = makePki();
  const tls = await startConsole({ https: { cert: readFileSync(pki.serverCert), key: readFileSync(pki.serverKey) }, console: { sessions: { idleMs: 400 } } });
  try {
    const ca = readFileSync(pki.caCert);
    const secure = await signInByForm(tls.url, { ca });
    assert.ok(secure.setCookie.split(';').map((f) => f.trim()).includes('Secure'), secure.setCookie);
    assert.equal((await raw(tls.url, 'GET', '/console/api/implementations', { headers: both(secure), ca })).status, 200);
    // The cookie alone does not keep a session alive.
    for (let i = 0; i < 3; i++) {
      await new Promise((resolve) => setTimeout(resolve, 150));
      await raw(tls.url, 'GET', '/', { headers: { cookie: secure.cookie }, ca });
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal((await raw(tls.url, 'GET', '/console/api/implementations', { headers: both(secure), ca })).status, 401, 'idle beyond its limit: ended');
  } finally {
    await tls.close();
    rmSync(pki.dir, { recursive: true, force: true });
  }
});

test('a state-changing request from another origin (another port of this host too) is refused, whatever it carries; the login form’s too', async () => {
  const session = await signInByForm(server.url);
  const created = await raw(server.url, 'POST', '/console/api/implementations', { headers: json(session), body: JSON.stringify({ name: 'Origin target', profileText: '{ "baseUrl": "https://csrf.example" }' }) });
  assert.equal(created.status, 201, created.body);
  const id = (JSON.parse(created.body) as { id: string }).id;
  const started = await raw(server.url, 'POST', `/console/api/implementations/${id}/runs`, { headers: json(session), body: '{}' });
  assert.equal(started.status, 201, started.body);
  const runId = (JSON.parse(started.body) as { id: string }).id;
  const port = Number(new URL(server.url).port);
  const doctored = server.fake.doctored.length;
  const stateChanging: Array<[string, string, string | undefined]> = [
    ['POST', '/console/api/implementations', JSON.stringify({ name: 'x', profileText: '{}' })],
    ['PUT', `/console/api/implementations/${id}`, JSON.stringify({ name: 'renamed', profileText: '{}' })],
    ['POST', `/console/api/implementations/${id}/runs`, '{}'],
    ['POST', `/console/api/runs/${runId}/cancel`, undefined],
    ['POST', '/console/api/doctor', JSON.stringify({ profileText: '{}' })],
    ['POST', `/console/api/runs/${runId}/tickets`, JSON.stringify({ kind: 'report' })],
    ['DELETE', '/console/api/session', undefined],
  ];
  for (const [method, path, body] of stateChanging) {
    const headers = body === undefined ? both(session) : json(session);
    for (const origin of ['https://evil.example', `http://127.0.0.1:${port === 8080 ? 8081 : 8080}`, `http://localhost:${port}`, 'null']) {
      const answer = await raw(server.url, method, path, { headers: { ...headers, origin }, body });
      assert.equal(answer.status, 403, `${method} ${path} from ${origin}: ${answer.body}`);
    }
  }
  const record = await server.fake.implementations.get(id);
  assert.equal(record?.name, 'Origin target', 'nothing changed');
  assert.equal((await server.fake.runs.list(id)).length, 1, 'no run started');
  assert.equal((await server.fake.runs.get(runId))?.status !== 'cancelled', true, 'not cancelled');
  assert.equal(server.fake.doctored.length, doctored, 'the doctor was not called');

  // From its own origin (or a client that names none), the same requests go through.
  const renamed = await raw(server.url, 'PUT', `/console/api/implementations/${id}`, { headers: json(session, { origin: server.url }), body: JSON.stringify({ name: 'renamed', profileText: '{}' }) });
  assert.equal(renamed.status, 200, renamed.body);
  const cancelled = await raw(server.url, 'POST', `/console/api/runs/${runId}/cancel`, { headers: both(session) });
  assert.equal(cancelled.status, 200, cancelled.body);
  // Signing in from another site's form, or another port's, is refused (login CSRF): no cookie, no secret.
  for (const origin of ['https://evil.example', `http://127.0.0.1:${port === 8080 ? 8081 : 8080}`]) {
    const foreign = await raw(server.url, 'POST', '/login', { headers: { 'content-type': 'application/x-www-form-urlencoded', origin }, body: `token=${FAKE_TOKEN}` });
    assert.equal(foreign.status, 403, origin);
    assert.equal(foreign.headers['set-cookie'], undefined);
    assert.doesNotMatch(foreign.body, SECRET_META);
  }
});

test('every page carries the Content-Security-Policy; the shell’s adds a fresh style nonce; a report keeps its own, framable by the console only', async () => {
  const session = await signInByForm(server.url);
  const { implementation: id, run } = await finishedRun(session, 'Policy');

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
    const answer = await raw(server.url, 'GET', path, { headers: both(session) });
    assert.equal(answer.headers['content-security-policy'], STRICT_POLICY, path);
    assert.equal(answer.headers['cache-control'], 'no-store', path);
  }
  const report = await raw(server.url, 'GET', await ticket(server.url, session, run, 'report'), { headers: { cookie: session.cookie } });
  assert.equal(report.status, 200);
  const policy = String(report.headers['content-security-policy']);
  const own = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(report.body)![1]!;
  assert.equal(policy, `${own}; frame-ancestors 'self'; sandbox allow-scripts allow-downloads`);
  assert.match(policy, /^default-src 'none'; script-src 'sha256-/);
  assert.equal(report.headers['referrer-policy'], 'no-referrer', 'the ticket URL goes nowhere');
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
    const answer = await raw(server.url, 'GET', path, { headers: both(session) });
    assert.ok(answer.status === 400 || answer.status === 404 || (answer.status === 401 && /\/(report|bundle)$/.test(path)), `${path} answered ${answer.status}`);
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
