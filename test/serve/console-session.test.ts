// The console's small rules, without a server: sessions expire (idle and
// absolute), a session's secret compares exactly, tickets are for one use,
// one session, one run and one kind, within their time; ids and "next" paths
// are checked for shape, the start-run form becomes the API's run options
// and one-run secrets, a report's own policy becomes its header, and an
// event of the API's stream is one frame.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SessionStore, bearerOf, cookieValue, secretMatches, sessionCookie } from '../../app/serve/console/session.ts';
import { TicketStore } from '../../app/serve/tickets.ts';
import { isImplementationId, isRunId, safeNext } from '../../app/serve/console/ids.ts';
import { givenSecrets, runOptionsOf } from '../../console/run-options.ts';
import { reportPolicy } from '../../app/serve/console/security-headers.ts';
import { sseFrame } from '../../app/serve/api/runs.ts';

test('a session ends when idle too long, and at its absolute limit however busy; only a use that proved both halves pushes it on', () => {
  let now = 0;
  const store = new SessionStore({ idleMs: 100, maxAgeMs: 250, now: () => now });
  const session = store.create({ id: 'tester' });
  assert.notEqual(session.id, session.secret);
  assert.match(session.secret, /^[A-Za-z0-9_-]{43}$/, '32 random bytes, base64url');
  now = 90;
  assert.equal(store.get(session.id)?.id, session.id, 'used within the idle time');
  store.touch(session);
  now = 180;
  assert.equal(store.get(session.id)?.id, session.id, 'the idle time slides');
  store.touch(session);
  now = 240;
  assert.equal(store.get(session.id)?.id, session.id);
  store.touch(session);
  now = 250;
  assert.equal(store.get(session.id), undefined, 'the absolute limit');
  const idle = store.create({ id: 'tester' });
  now = 300;
  assert.equal(store.get(idle.id)?.id, idle.id, 'looked up (a cookie alone)…');
  now = 351;
  assert.equal(store.get(idle.id), undefined, '…does not push it on: idle beyond 100 ms');
  assert.equal(store.get(undefined), undefined);
  assert.equal(store.get('unknown'), undefined);
  assert.ok(!('secret' in store.get(store.create({ id: 'tester' }).id)!), 'the store keeps the secret\'s hash, not the secret');
});

test('a session tells of its end (signed out or expired), once', () => {
  let now = 0;
  const store = new SessionStore({ idleMs: 100, now: () => now });
  const ended: string[] = [];
  store.onEnd((id) => ended.push(id));
  const a = store.create({ id: 'tester' });
  const b = store.create({ id: 'tester' });
  store.destroy(a.id);
  store.destroy(a.id);
  now = 200;
  assert.equal(store.get(b.id), undefined);
  assert.deepEqual(ended, [a.id, b.id]);
});

test('the bearer must be the session’s secret, exactly', () => {
  const store = new SessionStore();
  const session = store.create({ id: 'tester' });
  const other = store.create({ id: 'tester' });
  assert.ok(secretMatches(session, session.secret));
  for (const sent of [undefined, '', session.id, other.secret, session.secret.slice(1), `${session.secret}x`, session.secret.toUpperCase(), ['x'], 42]) assert.equal(secretMatches(session, sent), false, String(sent));
  assert.equal(bearerOf(`Bearer ${session.secret}`), session.secret);
  assert.equal(bearerOf(`bearer  ${session.secret} `), session.secret);
  for (const header of [undefined, '', session.secret, `Basic ${session.secret}`, `Bearer ${session.secret} extra`]) assert.equal(bearerOf(header), undefined, String(header));
});

test('a ticket opens one thing once: its session, its run, its kind, within its time', () => {
  let now = 0;
  const tickets = new TicketStore({ ttlMs: 60_000, now: () => now });
  const t = tickets.mint('s1', 'run-a', 'report');
  assert.match(t, /^[A-Za-z0-9_-]{43}$/);
  assert.ok(tickets.redeem(t, 's1', 'run-a', 'report'));
  assert.equal(tickets.redeem(t, 's1', 'run-a', 'report'), false, 'used');

  // Presented with anything wrong, it is refused, and used up all the same.
  for (const [session, run, kind] of [['s2', 'run-a', 'report'], ['s1', 'run-b', 'report'], ['s1', 'run-a', 'bundle'], ['', 'run-a', 'report']] as const) {
    const wrong = tickets.mint('s1', 'run-a', 'report');
    assert.equal(tickets.redeem(wrong, session, run, kind), false, `${session} ${run} ${kind}`);
    assert.equal(tickets.redeem(wrong, 's1', 'run-a', 'report'), false, 'gone after a wrong use');
  }
  for (const junk of [undefined, '', 42, ['x'], 'x'.repeat(43)]) assert.equal(tickets.redeem(junk, 's1', 'run-a', 'report'), false, String(junk));

  const late = tickets.mint('s1', 'run-a', 'bundle');
  now = 59_999;
  const inTime = tickets.mint('s1', 'run-a', 'bundle');
  assert.ok(tickets.redeem(inTime, 's1', 'run-a', 'bundle'));
  now = 60_000;
  assert.equal(tickets.redeem(late, 's1', 'run-a', 'bundle'), false, '60 s after it was minted');

  const ofEnded = tickets.mint('s3', 'run-a', 'report');
  tickets.endSession('s3');
  assert.equal(tickets.redeem(ofEnded, 's3', 'run-a', 'report'), false, 'its session ended');
});

test('tickets are bounded: expired ones are swept, and beyond the cap the oldest go', () => {
  let now = 0;
  const tickets = new TicketStore({ ttlMs: 1000, max: 3, now: () => now });
  const first = tickets.mint('s', 'r', 'report');
  tickets.mint('s', 'r', 'report');
  tickets.mint('s', 'r', 'report');
  const fourth = tickets.mint('s', 'r', 'report');
  assert.equal(tickets.size, 3);
  assert.equal(tickets.redeem(first, 's', 'r', 'report'), false, 'the oldest went');
  assert.ok(tickets.redeem(fourth, 's', 'r', 'report'));
  now = 1000;
  tickets.mint('s', 'r', 'report');
  assert.equal(tickets.size, 1, 'the expired ones were swept');
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
  assert.deepEqual(runOptionsOf({ explore: 0 }), { load: false }, 'no exploration unless asked for');
  assert.deepEqual(runOptionsOf({ explore: 30 }), { load: false, explore: 30 });
  assert.equal(runOptionsOf({ explore: 2.5 }), 'explore for a whole number of seconds, 0 to 600');
  assert.deepEqual(runOptionsOf({ areas: ['auth', 'users'], load: true, nonce: ' n-1 ' }), { load: true, grep: '@area:auth|@area:users', nonce: 'n-1' });
  assert.deepEqual(runOptionsOf({ grep: ' @check:auth.x ', areas: [] }), { load: false, grep: '@check:auth.x' });
  assert.match(String(runOptionsOf({ grep: 'x', areas: ['auth'] })), /not both/);
  assert.match(String(runOptionsOf({ grep: '(' })), /not a regular expression/);
});

test('the one-run secrets sent are those given a value: an empty field is left to the server’s environment', () => {
  assert.equal(givenSecrets({}), undefined);
  assert.equal(givenSecrets({ secrets: { A: '', B: '' }, clientSecret: '' }), undefined);
  assert.deepEqual(givenSecrets({ secrets: { A: 'a', B: '' } }), { env: { A: 'a' } });
  assert.deepEqual(givenSecrets({ secrets: { A: '' }, clientSecret: 'c' }), { clientSecret: 'c' });
});

test('a report’s own policy becomes its header, framable by the console only and sandboxed', () => {
  const html = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'sha256-abc'; style-src 'sha256-def'">`;
  assert.equal(reportPolicy(html), "default-src 'none'; script-src 'sha256-abc'; style-src 'sha256-def'; frame-ancestors 'self'; sandbox allow-scripts allow-downloads");
  assert.equal(reportPolicy('<p>no policy</p>'), "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'self'; sandbox allow-scripts allow-downloads");
});

test('an event of the API’s stream is one server-sent event whose data is one line', () => {
  const frame = sseFrame(7, { type: 'log', line: 'two\nlines\r\nand\u2028more' });
  assert.equal(frame.split('\n').length, 5);
  assert.match(frame, /^id: 7\nevent: log\ndata: \{[^\r\n]*\}\n\n$/);
  assert.equal(JSON.parse(frame.split('\n')[2]!.slice('data: '.length)).line, 'two\nlines\r\nand\u2028more');
});
