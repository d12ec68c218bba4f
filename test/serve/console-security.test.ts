// The console's defences, on a real `ptas serve` server on 127.0.0.1 with its
// services over a temporary store, and real runs of the bundled reference
// narrowed to one check: no page without a session cookie (pages redirect to
// /login); no call (the console's session endpoint, the API its pages call)
// without both halves of a session, the cookie and its secret as the bearer
// (401 JSON), and no report or bundle without the cookie and a one-use
// ticket (401, never a redirect); the secret handed over once, in the
// login's answer, and in no page since; no state change from another origin
// (port included), the login form's included; the session cookie's flags and
// expiry; the Content-Security-Policy on every page, and no violation of it
// in Chromium; user-supplied text (names, profile values, also as a check's
// reason quotes them) rendered as text; no path traversal through the
// console's routes or the API's.
import { after, before, mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { readFileSync, rmSync } from 'node:fs';
import type { Browser } from '@playwright/test';
import type { RunRecord } from '../../app/serve/contract.ts';
import { ImplementationStore } from '../../app/serve/store/implementations.ts';
import { StoreLayout } from '../../app/serve/store/layout.ts';
import { launchChromium } from '../report/support/browser.ts';
import { makePki } from '../support/tls.ts';
import { cancelledWhileRunning, startConsoleTestServer, type TestServer } from './support.ts';
import { cspViolations, signIn, watchedPage } from './support/console-page.ts';

const STRICT_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; frame-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const HOSTILE_NAME = '<img src=x onerror=alert(1)>';
/** A profile's protected path, which a failed check's reason quotes. */
const HOSTILE_PATH = '/users/<img src=x onerror=alert(5)><script>alert(6)</script><b>bold</b>';
const HOSTILE_PROFILE = `{
  "name": "<img src=x onerror=alert(2)>",
  "baseUrl": "https://x.example/<script>alert(3)</script>",
  "<img src=x onerror=alert(4)>": "</textarea><svg onload=alert(7)>"
}
`;

let lab: TestServer;
let browser: Browser | undefined;
/** A run of the reference with its (partial) report and bundle. */
let run: string;
/** A run cancelled before it started: no bundle. */
let cancelledRun: string;
/**
 * The implementation under test, as two: one that lets everything through
 * (its check of a request without a bearer fails, quoting the profile's
 * path), and one that never answers, whose run hangs while the tests run (the
 * server's shutdown stops it), so the runs they ask for wait behind it.
 */
let target: Server;
let targetRun: string;
/** A run of the implementation that never answers: it waits behind the one that hangs. */
const WAITING_RUN = { implementation: 'stalled', options: { load: false, grep: '@check:auth.missing-bearer-is-401' }, secrets: { env: { TARGET_SECRET: 'target-secret' } } };

before(async () => {
  // Two runs at once: the hanging one, and the others one at a time.
  lab = await startConsoleTestServer({ maxConcurrentRuns: 2 });
  target = createServer((request, response) => {
    if (!request.url?.startsWith('/stalled')) response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const profile = (path: string, protectedPath: string) =>
    JSON.stringify({ baseUrl: `http://127.0.0.1:${(target.address() as AddressInfo).port}${path}`, credentials: { clientId: 'test', clientSecret: 'env:TARGET_SECRET' }, http: { timeoutMs: 120_000 }, auth: { protectedPath } }, null, 2);
  assert.equal((await lab.call('PUT', '/api/implementations/hostile-target', { body: { name: `${HOSTILE_NAME} target`, profileText: profile('', HOSTILE_PATH) } })).status, 201);
  assert.equal((await lab.call('PUT', '/api/implementations/stalled', { body: { name: 'Stalled', profileText: profile('/stalled', '/users/1') } })).status, 201);
  run = (await cancelledWhileRunning(lab)).id;
  assert.equal((await lab.call('POST', '/api/runs', { body: WAITING_RUN })).json.status, 'running', 'the run that hangs');
  cancelledRun = ((await lab.call('POST', '/api/runs', { body: WAITING_RUN })).json as RunRecord).id;
  assert.equal((await lab.call('POST', `/api/runs/${cancelledRun}/cancel`)).json.status, 'cancelled');
  const started = await lab.call('POST', '/api/runs', { body: { ...WAITING_RUN, implementation: 'hostile-target' } });
  assert.equal(started.status, 202, started.text);
  targetRun = (started.json as RunRecord).id;
});

after(async () => {
  await browser?.close();
  await lab?.close();
  target?.closeAllConnections();
  await new Promise((resolve) => target?.close(resolve));
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

async function signInByForm(base: string, options: { ca?: Buffer; next?: string; token?: string } = {}): Promise<SignedIn> {
  const answer = await raw(base, 'POST', '/login', {
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
    body: new URLSearchParams({ token: options.token ?? lab.token, next: options.next ?? '/' }).toString(),
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
  const answer = await raw(base, 'POST', `/api/runs/${runId}/tickets`, { headers: json(session), body: JSON.stringify({ kind }) });
  assert.equal(answer.status, 201, answer.body);
  return (JSON.parse(answer.body) as { url: string }).url;
}

/** A new implementation, by the session as the console's New does (its runs would be refused: the target does not resolve). */
async function created(session: SignedIn, name: string): Promise<string> {
  const answer = await raw(lab.url, 'POST', '/api/implementations', { headers: json(session), body: JSON.stringify({ name, profileText: '{ "baseUrl": "https://policy.example" }' }) });
  assert.equal(answer.status, 201, answer.body);
  return (JSON.parse(answer.body) as { id: string }).id;
}

/** The runs there are now, to cancel those a test asks for (cancelNew). */
const runIds = async () => new Set(((await lab.call('GET', '/api/runs')).json as RunRecord[]).map((r) => r.id));

/** Cancels the runs asked for since `before`, which wait behind the one that hangs: the next tests' wait for none of them. */
async function cancelNew(before: Set<string>): Promise<void> {
  for (const r of (await lab.call('GET', '/api/runs')).json as RunRecord[]) if (!before.has(r.id) && r.status === 'queued') await lab.call('POST', `/api/runs/${r.id}/cancel`);
}

/** The runs of the implementation that never answers: how many there are, to see that none was started. */
const stalledRuns = async () => ((await lab.call('GET', '/api/runs?implementation=stalled')).json as RunRecord[]).length;

/** The console's own endpoint: its refusals are {error: SENTENCE}. */
const SESSION_ENDPOINTS: Array<readonly [string, string]> = [
  ['GET', '/console/api/session'],
  ['DELETE', '/console/api/session'],
];

/** The API routes the console's pages call: its refusals are {error: CODE, message}. */
const API_ENDPOINTS: Array<readonly [string, string]> = [
  ['GET', '/api/implementations'],
  ['GET', '/api/implementations/acme'],
  ['GET', '/api/runs?implementation=acme'],
  ['GET', '/api/runs/AAAAAAAAAAAAAAAAAAAAAA'],
  ['GET', '/api/runs/AAAAAAAAAAAAAAAAAAAAAA/events'],
  ['POST', '/api/runs/AAAAAAAAAAAAAAAAAAAAAA/tickets'],
  ['GET', '/api/profile-schema'],
  ['GET', '/api/starter'],
  ['POST', '/api/implementations'],
  ['POST', '/api/doctor'],
  ['POST', '/api/runs'],
];

test('pages without a session redirect to the login page, which brings the user back; endpoints answer 401 JSON; a report or bundle 401, never a redirect', async () => {
  for (const path of ['/', '/console/implementations/new', '/console/implementations/acme', '/console/runs/AAAAAAAAAAAAAAAAAAAAAA']) {
    const answer = await raw(lab.url, 'GET', path);
    assert.equal(answer.status, 303, path);
    assert.equal(answer.headers.location, `/login?next=${encodeURIComponent(path)}`, path);
  }
  for (const path of ['/console/runs/AAAAAAAAAAAAAAAAAAAAAA/report', '/console/runs/AAAAAAAAAAAAAAAAAAAAAA/bundle', '/console/runs/AAAAAAAAAAAAAAAAAAAAAA/report?ticket=x']) {
    const answer = await raw(lab.url, 'GET', path);
    assert.equal(answer.status, 401, path);
    assert.equal(answer.headers.location, undefined, path);
    assert.equal(answer.headers['referrer-policy'], 'no-referrer', path);
  }
  for (const [method, path] of [...SESSION_ENDPOINTS, ...API_ENDPOINTS]) {
    const answer = await raw(lab.url, method, path, { headers: { 'content-type': 'application/json' }, body: method === 'POST' ? '{}' : undefined });
    assert.equal(answer.status, 401, `${method} ${path}`);
    assert.match(String(answer.headers['content-type']), /application\/json/);
    const body = JSON.parse(answer.body) as { error: string; message?: string };
    if (path.startsWith('/api/')) assert.deepEqual([Object.keys(body), body.error], [['error', 'message'], 'unauthorized'], `${method} ${path}`);
    else assert.deepEqual(Object.keys(body), ['error'], `${method} ${path}`);
  }
  const bad = await raw(lab.url, 'POST', '/login', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'token=not-a-token' });
  assert.equal(bad.status, 401);
  assert.equal(bad.headers['set-cookie'], undefined);
  assert.match(bad.body, /not valid/);
  assert.doesNotMatch(bad.body, SECRET_META);
  // "next" never leaves the console.
  for (const next of ['//evil.example/', 'https://evil.example/', '/\\evil.example']) {
    const answer = await raw(lab.url, 'POST', '/login', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: lab.token, next }).toString() });
    assert.match(answer.body, /<main class="login" id="signed-in" data-next="\/">/, next);
  }
});

test('every call wants both halves of one session: the cookie alone, the secret alone, or halves of two sessions open nothing', async () => {
  const session = await signInByForm(lab.url);
  const other = await signInByForm(lab.url);
  const implementation = await created(session, 'Halves');
  const existing = await runIds();
  // One to cancel: it waits behind the one that hangs.
  const waiting = ((await lab.call('POST', '/api/runs', { body: WAITING_RUN })).json as RunRecord).id;
  const runsBefore = await stalledRuns();
  const checks = mock.method(lab.server.services, 'check');
  const routes: Array<readonly [string, string, string | undefined]> = [
    ['GET', '/console/api/session', undefined],
    ['GET', '/api/implementations', undefined],
    ['GET', `/api/implementations/${implementation}`, undefined],
    ['GET', `/api/runs?implementation=${implementation}`, undefined],
    ['GET', `/api/runs/${run}`, undefined],
    ['GET', `/api/runs/${run}/events`, undefined],
    ['GET', `/api/runs/${run}/compare/${run}`, undefined],
    ['GET', '/api/starter', undefined],
    ['GET', '/api/profile-schema', undefined],
    ['POST', `/api/runs/${run}/tickets`, JSON.stringify({ kind: 'report' })],
    ['POST', '/api/doctor', JSON.stringify({ profileText: '{}' })],
    ['PUT', `/api/implementations/${implementation}`, JSON.stringify({ name: 'renamed', profileText: '{}' })],
    ['POST', '/api/runs', JSON.stringify(WAITING_RUN)],
    ['POST', `/api/runs/${waiting}/cancel`, undefined],
    ['DELETE', '/console/api/session', undefined],
  ];
  const content = (body: string | undefined): Record<string, string> => (body === undefined ? {} : { 'content-type': 'application/json' });
  try {
    for (const [method, path, body] of routes) {
      const cases: Array<[string, Record<string, string>]> = [
        ['the cookie alone', { cookie: session.cookie }],
        ['the secret alone', { authorization: `Bearer ${session.secret}` }],
        ['the cookie and another session’s secret', { cookie: session.cookie, authorization: `Bearer ${other.secret}` }],
        ['another session’s cookie and the secret', { cookie: other.cookie, authorization: `Bearer ${session.secret}` }],
        ['the cookie and its own id as the bearer', { cookie: session.cookie, authorization: `Bearer ${session.cookie.split('=')[1]}` }],
        ['the cookie and the secret as a cookie', { cookie: `${session.cookie}; ptas_console_secret=${session.secret}` }],
      ];
      for (const [what, headers] of cases) {
        const answer = await raw(lab.url, method, path, { headers: { ...headers, ...content(body), origin: lab.url }, body });
        assert.equal(answer.status, 401, `${method} ${path} with ${what}: ${answer.body}`);
      }
    }
    assert.equal(lab.server.services.implementations.get(implementation)?.name, 'Halves', 'nothing changed');
    assert.equal(await stalledRuns(), runsBefore, 'no run started');
    assert.equal(lab.server.services.runs.get(waiting)?.status, 'queued', 'nothing cancelled');
    assert.equal(checks.mock.callCount(), 0, 'the doctor was not called');

    // Both halves of one session: every route answers (sign-out last).
    for (const [method, path, body] of routes) {
      const answer = await raw(lab.url, method, path, { headers: { ...both(session), ...content(body), origin: lab.url }, body });
      assert.ok(answer.status >= 200 && answer.status < 300, `${method} ${path}: ${answer.status} ${answer.body}`);
    }
    assert.equal(checks.mock.callCount(), 1, 'Check ran once');
    assert.equal((await raw(lab.url, 'GET', '/api/implementations', { headers: both(session) })).status, 401, 'signed out');
    assert.equal((await raw(lab.url, 'GET', '/api/implementations', { headers: both(other) })).status, 200, 'the other session goes on');
  } finally {
    checks.mock.restore();
    await cancelNew(existing);
  }
});

test('the secret is handed over once, in the login’s answer (no-store, the strict policy), and in no page a cookie fetches', async () => {
  const session = await signInByForm(lab.url, { next: '/console/implementations/new' });
  assert.equal(session.answer.headers['cache-control'], 'no-store');
  assert.equal(session.answer.headers['content-security-policy'], STRICT_POLICY);
  assert.equal(session.answer.headers.location, undefined, 'not a redirect: a page whose script keeps the secret');
  assert.doesNotMatch(session.answer.body, /<script>|<script [^>]*>[^<]|\son[a-z]+=|style=/i, 'no inline script');
  assert.match(session.answer.body, /<script src="\/assets\/app\.[0-9a-f]{16}\.js" defer><\/script>/, 'the app’s own script');
  assert.match(session.answer.body, /data-next="\/console\/implementations\/new"/);
  assert.match(session.answer.body, /<noscript>/);
  const pages = ['/', '/login', '/login?next=%2F', '/console/implementations/new', `/console/runs/${run}`, '/console/nowhere', '/assets/nothing.js'];
  for (const path of pages) {
    const answer = await raw(lab.url, 'GET', path, { headers: { cookie: session.cookie } });
    assert.ok(!answer.body.includes(session.secret), `${path} shows the secret`);
    assert.doesNotMatch(answer.body, /ptas-csrf|_csrf|ptas-session-secret/, path);
  }
  // The login form shows even to a browser with a session cookie (a stale cookie must not loop).
  const form = await raw(lab.url, 'GET', '/login?next=%2F', { headers: { cookie: session.cookie } });
  assert.equal(form.status, 200);
  assert.match(form.body, /<input id="token"/);
  // A new login from a browser with a session ends that session.
  const again = await raw(lab.url, 'POST', '/login', { headers: { cookie: session.cookie, 'content-type': 'application/x-www-form-urlencoded', origin: lab.url }, body: `token=${lab.token}` });
  assert.equal(again.status, 200);
  assert.equal((await raw(lab.url, 'GET', '/api/implementations', { headers: both(session) })).status, 401, 'the old session ended');
});

test('a state-changing request from another origin (another port of this host too) is refused, whatever it carries; the login form’s too', async () => {
  const session = await signInByForm(lab.url);
  const id = await created(session, 'Origin target');
  const existing = await runIds();
  // One to cancel: it waits behind the one that hangs.
  const runId = ((await lab.call('POST', '/api/runs', { body: WAITING_RUN })).json as RunRecord).id;
  const runsBefore = await stalledRuns();
  const implementationsBefore = lab.server.services.implementations.list().length;
  const port = Number(new URL(lab.url).port);
  const checks = mock.method(lab.server.services, 'check');
  const stateChanging: Array<[string, string, string | undefined]> = [
    ['POST', '/api/implementations', JSON.stringify({ name: 'x', profileText: '{}' })],
    ['PUT', `/api/implementations/${id}`, JSON.stringify({ name: 'renamed', profileText: '{}' })],
    ['POST', '/api/runs', JSON.stringify(WAITING_RUN)],
    ['POST', `/api/runs/${runId}/cancel`, undefined],
    ['POST', '/api/doctor', JSON.stringify({ profileText: '{}' })],
    ['POST', `/api/runs/${run}/tickets`, JSON.stringify({ kind: 'report' })],
    ['DELETE', '/console/api/session', undefined],
  ];
  try {
    for (const [method, path, body] of stateChanging) {
      const headers = body === undefined ? both(session) : json(session);
      for (const origin of ['https://evil.example', `http://127.0.0.1:${port === 8080 ? 8081 : 8080}`, `http://localhost:${port}`, 'null']) {
        const answer = await raw(lab.url, method, path, { headers: { ...headers, origin }, body });
        assert.equal(answer.status, 403, `${method} ${path} from ${origin}: ${answer.body}`);
      }
    }
    assert.equal(lab.server.services.implementations.get(id)?.name, 'Origin target', 'nothing changed');
    assert.equal(lab.server.services.implementations.list().length, implementationsBefore, 'nothing created');
    assert.equal(await stalledRuns(), runsBefore, 'no run started');
    assert.equal(lab.server.services.runs.get(runId)?.status, 'queued', 'not cancelled');
    assert.equal(checks.mock.callCount(), 0, 'the doctor was not called');

    // From its own origin (or a client that names none), the same requests go through.
    const renamed = await raw(lab.url, 'PUT', `/api/implementations/${id}`, { headers: json(session, { origin: lab.url }), body: JSON.stringify({ name: 'renamed', profileText: '{}' }) });
    assert.equal(renamed.status, 200, renamed.body);
    const cancelled = await raw(lab.url, 'POST', `/api/runs/${runId}/cancel`, { headers: both(session) });
    assert.equal(cancelled.status, 200, cancelled.body);
  } finally {
    checks.mock.restore();
    await cancelNew(existing);
  }
  // Signing in from another site's form, or another port's, is refused (login CSRF): no cookie, no secret.
  for (const origin of ['https://evil.example', `http://127.0.0.1:${port === 8080 ? 8081 : 8080}`]) {
    const foreign = await raw(lab.url, 'POST', '/login', { headers: { 'content-type': 'application/x-www-form-urlencoded', origin }, body: `token=${lab.token}` });
    assert.equal(foreign.status, 403, origin);
    assert.equal(foreign.headers['set-cookie'], undefined);
    assert.doesNotMatch(foreign.body, SECRET_META);
  }
});

test('a report or bundle opens with the cookie and a ticket of that session, run and kind, once', async () => {
  const session = await signInByForm(lab.url);
  const other = await signInByForm(lab.url);
  for (const kind of ['report', 'bundle'] as const) {
    const url = await ticket(lab.url, session, run, kind);
    assert.match(url, new RegExp(`^/console/runs/${run}/${kind}\\?ticket=[A-Za-z0-9_-]{43}$`));
    const opened = await raw(lab.url, 'GET', url, { headers: { cookie: session.cookie } });
    assert.equal(opened.status, 200, `${kind}: ${opened.body.slice(0, 200)}`);
    assert.equal(opened.headers['referrer-policy'], 'no-referrer');
    assert.equal((await raw(lab.url, 'GET', url, { headers: { cookie: session.cookie } })).status, 401, `${kind}: used`);

    const wrong: Array<[string, string, Record<string, string>]> = [
      ['without the cookie', url, {}],
      ['with another session’s cookie', url, { cookie: other.cookie }],
      ['with the bearer instead of the cookie', url, { authorization: `Bearer ${session.secret}` }],
      ['for another run', url.replace(run, cancelledRun), { cookie: session.cookie }],
      ['for the other kind', url.replace(`/${kind}?`, `/${kind === 'report' ? 'bundle' : 'report'}?`), { cookie: session.cookie }],
    ];
    for (const [what, wrongUrl, headers] of wrong) {
      const fresh = wrongUrl.replace(/ticket=.*$/, `ticket=${new URL(await ticket(lab.url, session, run, kind), lab.url).searchParams.get('ticket')}`);
      const answer = await raw(lab.url, 'GET', fresh, { headers });
      assert.equal(answer.status, 401, `${kind} ${what}`);
      assert.equal(answer.headers.location, undefined);
    }
    const tried = new URL(await ticket(lab.url, session, run, kind), lab.url);
    await raw(lab.url, 'GET', tried.pathname + tried.search, { headers: {} });
    assert.equal((await raw(lab.url, 'GET', tried.pathname + tried.search, { headers: { cookie: session.cookie } })).status, 401, `${kind}: a ticket presented once without the cookie is gone`);
  }
  assert.equal((await raw(lab.url, 'POST', '/api/runs/AAAAAAAAAAAAAAAAAAAAAA/tickets', { headers: json(session), body: '{"kind":"report"}' })).status, 404);
  assert.equal((await raw(lab.url, 'POST', `/api/runs/${cancelledRun}/tickets`, { headers: json(session), body: '{"kind":"bundle"}' })).status, 409, 'no bundle to download');
  assert.equal((await raw(lab.url, 'POST', `/api/runs/${run}/tickets`, { headers: json(session), body: '{"kind":"results"}' })).status, 400);
  // A signed-out session's tickets go with it.
  const left = await ticket(lab.url, session, run, 'report');
  assert.equal((await raw(lab.url, 'DELETE', '/console/api/session', { headers: both(session) })).status, 204);
  assert.equal((await raw(lab.url, 'GET', left, { headers: { cookie: session.cookie } })).status, 401);
});

test('the session cookie is HttpOnly and SameSite=Strict, Secure over TLS, and ends at sign-out (with the bearer only) and when idle', async () => {
  const plain = await signInByForm(lab.url);
  const flags = plain.setCookie.split(';').map((f) => f.trim());
  assert.ok(flags.includes('HttpOnly'), plain.setCookie);
  assert.ok(flags.includes('SameSite=Strict'), plain.setCookie);
  assert.ok(flags.includes('Path=/'), plain.setCookie);
  assert.ok(!flags.includes('Secure'), 'not Secure over plain http: the browser would drop it');
  assert.match(plain.cookie, /^ptas_console=[A-Za-z0-9_-]{43}$/, '32 random bytes');
  assert.notEqual(plain.cookie.split('=')[1], plain.secret);

  // Sign-out needs the bearer: a request with the cookie alone (from this origin even) ends nothing.
  assert.equal((await raw(lab.url, 'DELETE', '/console/api/session', { headers: { cookie: plain.cookie, origin: lab.url } })).status, 401);
  assert.equal((await raw(lab.url, 'POST', '/logout', { headers: { cookie: plain.cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: '' })).status, 404, 'no sign-out form any more');
  assert.equal((await raw(lab.url, 'GET', '/api/implementations', { headers: both(plain) })).status, 200, 'still signed in');
  const out = await raw(lab.url, 'DELETE', '/console/api/session', { headers: both(plain, { origin: lab.url }) });
  assert.equal(out.status, 204);
  assert.match(String(out.headers['set-cookie']), /^ptas_console=; .*Max-Age=0/);
  assert.equal((await raw(lab.url, 'GET', '/api/implementations', { headers: both(plain) })).status, 401);

  const pki = makePki();
  const tls = await startConsoleTestServer({ tls: { certFile: pki.serverCert, keyFile: pki.serverKey } }, { sessions: { idleMs: 400 } });
  try {
    const ca = readFileSync(pki.caCert);
    const secure = await signInByForm(tls.url, { ca, token: tls.token });
    assert.ok(secure.setCookie.split(';').map((f) => f.trim()).includes('Secure'), secure.setCookie);
    assert.equal((await raw(tls.url, 'GET', '/api/implementations', { headers: both(secure), ca })).status, 200);
    // The cookie alone does not keep a session alive.
    for (let i = 0; i < 3; i++) {
      await new Promise((resolve) => setTimeout(resolve, 150));
      await raw(tls.url, 'GET', '/', { headers: { cookie: secure.cookie }, ca });
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal((await raw(tls.url, 'GET', '/api/implementations', { headers: both(secure), ca })).status, 401, 'idle beyond its limit: ended');
  } finally {
    await tls.close();
    rmSync(pki.dir, { recursive: true, force: true });
  }
});

test('every page carries the Content-Security-Policy; the shell’s adds a fresh style nonce; a report keeps its own, framable by the console only', async () => {
  const session = await signInByForm(lab.url);
  const id = await created(session, 'Policy');

  const nonces = new Set<string>();
  for (const path of ['/', '/console/implementations/new', `/console/implementations/${id}`, `/console/runs/${run}`]) {
    const answer = await raw(lab.url, 'GET', path, { headers: { cookie: session.cookie } });
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
    const answer = await raw(lab.url, 'GET', path, { headers: { cookie: session.cookie } });
    assert.equal(answer.headers['content-security-policy'], STRICT_POLICY, path);
  }
  const who = await raw(lab.url, 'GET', '/console/api/session', { headers: both(session) });
  assert.equal(who.headers['content-security-policy'], STRICT_POLICY);
  assert.equal(who.headers['cache-control'], 'no-store');
  // The API's answers are data, never a page: JSON, not sniffed, not stored.
  for (const path of ['/api/implementations', `/api/runs/${run}`]) {
    const answer = await raw(lab.url, 'GET', path, { headers: both(session) });
    assert.match(String(answer.headers['content-type']), /^application\/json/, path);
    assert.equal(answer.headers['x-content-type-options'], 'nosniff', path);
    assert.equal(answer.headers['cache-control'], 'no-store', path);
  }
  const report = await raw(lab.url, 'GET', await ticket(lab.url, session, run, 'report'), { headers: { cookie: session.cookie } });
  assert.equal(report.status, 200);
  const policy = String(report.headers['content-security-policy']);
  const own = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(report.body)![1]!;
  assert.equal(policy, `${own}; frame-ancestors 'self'; sandbox allow-scripts allow-downloads`);
  assert.match(policy, /^default-src 'none'; script-src 'sha256-/);
  assert.equal(report.headers['referrer-policy'], 'no-referrer', 'the ticket URL goes nowhere');
});

test('path traversal through the console’s routes finds nothing', async () => {
  const session = await signInByForm(lab.url);
  const paths = [
    '/console/runs/..%2F..%2Fetc%2Fpasswd',
    '/console/runs/..%2F..%2Fetc%2Fpasswd/report',
    '/console/runs/%2e%2e%2f%2e%2e%2fetc%2fpasswd/bundle',
    '/console/runs/../../etc/passwd',
    '/console/implementations/..%2F..%2Fpackage.json',
    '/api/runs/..%2F..%2Fetc%2Fpasswd',
    '/api/runs/..%2F..%2Fetc%2Fpasswd/events',
    '/api/implementations/..%2F..%2Fpackage.json',
    '/api/runs?implementation=..%2F..%2Fpackage.json',
    '/api/runs/AAAA/compare/..%2F..%2Fetc%2Fpasswd',
    '/assets/..%2F..%2Fpackage.json',
    '/assets/../../package.json',
    '/assets/%2e%2e/%2e%2e/package.json',
  ];
  for (const path of paths) {
    const answer = await raw(lab.url, 'GET', path, { headers: both(session) });
    assert.ok(answer.status === 400 || answer.status === 404 || (answer.status === 401 && /\/(report|bundle)$/.test(path)), `${path} answered ${answer.status}`);
    assert.doesNotMatch(answer.body, /root:|"name": "ptas-conformance"/, path);
  }
});

test('names and profile values, also as a check’s reason quotes them, render as text in Chromium, with no policy violation on any page', async () => {
  // A profile kept as it was written, not as the server would take it now (by hand, by an older version): shown as text all the same.
  const at = new Date().toISOString();
  new ImplementationStore(new StoreLayout(lab.data)).save({ id: 'hostile-profile', name: HOSTILE_NAME, profileText: HOSTILE_PROFILE, createdAt: at, updatedAt: at });
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

  await signIn(page, lab.url, lab.token);
  const row = page.locator('tr[data-implementation="hostile-profile"]');
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
  // Check: the server refuses the profile (422), naming the key, as text.
  const logged = problems.length;
  await page.click('#check');
  await page.locator('#doctor .notice').waitFor();
  assert.match((await page.textContent('#doctor .notice')) ?? '', /unknown key "<img src=x onerror=alert\(4\)>"/);
  const failed = problems.splice(logged);
  assert.ok(failed.every((line) => /status of 422/.test(line)), `the refusal is the one resource Chromium logs as failed: ${failed.join('\n')}`);
  await noMarkupRan('the implementation page');

  // The run of the implementation that lets everything through (started before the tests): its check of a request without a bearer fails.
  await page.goto(`${lab.url}/console/runs/${targetRun}`);
  await page.locator('#run-verdict .badge').waitFor({ timeout: 30_000 });
  const hostileRow = page.locator('.check-row[data-verdict="FAIL"]', { has: page.locator('.check-title', { hasText: /^A protected operation without Authorization is refused/ }) });
  assert.equal(await hostileRow.locator('td.reason').textContent(), `GET ${HOSTILE_PATH} without a bearer credential was accepted: 200`);
  await page.frameLocator('#report').locator('body[data-ready="true"]').waitFor({ timeout: 20_000 });
  await noMarkupRan('the run page');

  assert.deepEqual(dialogs, []);
  assert.deepEqual(problems, []);
  assert.deepEqual(await cspViolations(page), []);
});
