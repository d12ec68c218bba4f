// The console's small server-side rules, without a server: sessions expire
// (idle and absolute), CSRF tokens compare exactly, ids and "next" paths are
// checked for shape, the start-run form becomes run options, and a report's
// own policy becomes its header.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SessionStore, cookieValue, csrfMatches, sessionCookie } from '../../app/serve/console/session.ts';
import { isImplementationId, isRunId, safeNext } from '../../app/serve/console/ids.ts';
import { runOptionsOf } from '../../app/serve/console/api.ts';
import { reportPolicy } from '../../app/serve/console/security-headers.ts';
import { sseFrame } from '../../app/serve/console/events.ts';

test('a session ends when idle too long, and at its absolute limit however busy', () => {
  let now = 0;
  const store = new SessionStore({ idleMs: 100, maxAgeMs: 250, now: () => now });
  const session = store.create({ id: 'tester' });
  assert.notEqual(session.id, session.csrfToken);
  now = 90;
  assert.equal(store.get(session.id), session, 'used within the idle time');
  now = 180;
  assert.equal(store.get(session.id), session, 'the idle time slides');
  now = 240;
  assert.equal(store.get(session.id), session);
  now = 250;
  assert.equal(store.get(session.id), undefined, 'the absolute limit');
  const idle = store.create({ id: 'tester' });
  now = 351;
  assert.equal(store.get(idle.id), undefined, 'idle beyond 100 ms');
  assert.equal(store.get(undefined), undefined);
  assert.equal(store.get('unknown'), undefined);
});

test('the CSRF token must be the session’s, exactly', () => {
  const session = new SessionStore().create({ id: 'tester' });
  assert.ok(csrfMatches(session, session.csrfToken));
  for (const sent of [undefined, '', session.csrfToken.slice(1), `${session.csrfToken}x`, session.csrfToken.toUpperCase(), ['x'], 42]) assert.equal(csrfMatches(session, sent), false, String(sent));
});

test('the session cookie: read from a Cookie header, written with its flags', () => {
  assert.equal(cookieValue('a=1; ptas_console=abc; b=2', 'ptas_console'), 'abc');
  assert.equal(cookieValue('ptas_console_x=abc', 'ptas_console'), undefined);
  assert.equal(cookieValue(undefined, 'ptas_console'), undefined);
  assert.equal(sessionCookie('v', { secure: false }), 'ptas_console=v; Path=/; HttpOnly; SameSite=Strict');
  assert.equal(sessionCookie('', { secure: true, maxAgeSeconds: 0 }), 'ptas_console=; Path=/; HttpOnly; SameSite=Strict; Secure; Max-Age=0');
});

test('ids and the path after login are checked for shape', () => {
  assert.ok(isRunId('AbC_-0123456789abcdefg'));
  for (const bad of ['', '../x', 'a/b', 'a.b', 'a%2Fb', 'x'.repeat(65), undefined]) assert.equal(isRunId(bad), false, String(bad));
  assert.ok(isImplementationId('acme-staging'));
  for (const bad of ['Acme', '..', 'a/b', 'a_b', '']) assert.equal(isImplementationId(bad), false, bad);
  assert.equal(safeNext('/console/runs/abc?x=1'), '/console/runs/abc?x=1');
  for (const bad of ['//evil.example', '/\\evil.example', 'https://evil.example', 'javascript:alert(1)', '/a b', '/\nx', 42]) assert.equal(safeNext(bad), '/', String(bad));
});

test('the start-run form becomes run options: areas as a grep, or the grep itself, never both', () => {
  assert.deepEqual(runOptionsOf({}), { load: false });
  assert.deepEqual(runOptionsOf({ areas: ['auth', 'users'], load: true, nonce: ' n-1 ' }), { load: true, grep: '@area:auth|@area:users', nonce: 'n-1' });
  assert.deepEqual(runOptionsOf({ grep: ' @check:auth.x ', areas: [] }), { load: false, grep: '@check:auth.x' });
  assert.match(String(runOptionsOf({ grep: 'x', areas: ['auth'] })), /not both/);
  assert.match(String(runOptionsOf({ grep: '(' })), /not a regular expression/);
});

test('a report’s own policy becomes its header, framable by the console only and sandboxed', () => {
  const html = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'sha256-abc'; style-src 'sha256-def'">`;
  assert.equal(reportPolicy(html), "default-src 'none'; script-src 'sha256-abc'; style-src 'sha256-def'; frame-ancestors 'self'; sandbox allow-scripts allow-downloads");
  assert.equal(reportPolicy('<p>no policy</p>'), "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'self'; sandbox allow-scripts allow-downloads");
});

test('an event is one server-sent event whose data is one line', () => {
  const frame = sseFrame(7, { type: 'log', line: 'two\nlines\r\nand\u2028more' });
  assert.equal(frame.split('\n').length, 5);
  assert.match(frame, /^id: 7\nevent: log\ndata: \{[^\r\n]*\}\n\n$/);
  assert.equal(JSON.parse(frame.split('\n')[2]!.slice('data: '.length)).line, 'two\nlines\r\nand\u2028more');
});
