// Several webhook sessions on one receiver (src/webhooks/routing.ts): each
// holds a user, deliveries go to the session holding the user they name,
// attempts follow their first attempt, deliveries naming no user go to every
// session causing an event (causing never makes a session wait), the
// receiving address is set up under a lock that remembers the address last
// set up, and a user whose event was left unacknowledged is held until its
// retry is acknowledged. Then the same over the hub's control address
// (runner/webhook-hub/server.ts, client.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { Agent, request } from 'undici';
import { IDEMPOTENCY_HEADER, type ReceivedDelivery } from '../../src/webhooks/delivery.ts';
import { syntheticDelivery } from '../support/deliveries.ts';
import { HubClient } from '../../runner/webhook-hub/client.ts';
import { WebhookHub } from '../../runner/webhook-hub/hub.ts';
import { serveHub } from '../../runner/webhook-hub/server.ts';
import { DeliveryRouter, REMEMBERED_EVENTS, type ResponseStep } from '../../src/webhooks/routing.ts';

let seq = 0;
const delivery = (body: unknown, key?: string) => syntheticDelivery(++seq, body, key, performance.now());

/** Routes a delivery and answers it as a receiver would (written at once). */
function deliver(router: DeliveryRouter, d: ReceivedDelivery): ResponseStep {
  const step = router.route(d);
  d.answer = { status: step.status, delayMs: 0, written: true };
  router.answered(d);
  return step;
}

const event = (user: string, n = 1) => ({ params: { action: 'verification', success: true, user_pid: user, timestamp: n } });
const session = (router: DeliveryRouter, users: string[][], script: ResponseStep[], holdMs = 0) => router.openSession({ users, script, holdMs });

test('sessions side by side: each delivery goes to the session holding the user it names, answered by that script', async () => {
  const router = new DeliveryRouter();
  const a = await session(router, [['ua'], ['ub']], [{ status: 500 }, { status: 204 }]);
  const b = await session(router, [['ua'], ['ub']], [{ status: 201 }]);
  assert.deepEqual([a.userIds, b.userIds], [['ua'], ['ub']], 'the first free user is granted');
  assert.equal(deliver(router, delivery(event('ub'), 'kb')).status, 201);
  assert.equal(deliver(router, delivery(event('ua'), 'ka')).status, 500);
  assert.equal(deliver(router, delivery(event('ua'), 'ka')).status, 204, "the second attempt of a's event gets a's second step");
  assert.equal(deliver(router, delivery({ params: { action: 'inactivation', user: { id: 'UB' } } }, 'kc')).status, 201, 'named a level down, in another case');
  assert.deepEqual(a.deliveries.map((d) => d.seq), [seq - 2, seq - 1]);
  assert.equal(b.deliveries.length, 2);
  // Named by no user: the session causing an event takes it; with none causing and two open, nobody does.
  assert.equal(deliver(router, delivery('not json')).status, 204);
  assert.equal(a.deliveries.length + b.deliveries.length, 4, 'taken by neither');
  b.beginCause();
  assert.equal(deliver(router, delivery('not json')).status, 201);
  assert.equal(b.deliveries.length, 3, 'taken by the session causing an event');
  a.end();
  b.end();
});

test('a session for a busy user waits until it is free; the only open session takes what names no user', async () => {
  const router = new DeliveryRouter();
  const first = await session(router, [['u']], [{ status: 204 }]);
  let second: Awaited<ReturnType<typeof session>> | undefined;
  const waiting = session(router, [['u']], [{ status: 503 }]).then((s) => (second = s));
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(second, undefined, 'the user is held by the first session');
  assert.equal(deliver(router, delivery({ event: 'offer_status' }, 'o1')).status, 204, 'the only open session takes a notification naming nobody');
  assert.equal(first.deliveries.length, 1);
  first.end();
  await waiting;
  assert.equal(deliver(router, delivery(event('u'), 'k2')).status, 503);
  assert.equal(second!.deliveries.length, 1);
  second!.end();
});

test('causing is shared: a delivery naming no user goes to every session causing, answered as the first to begin says', () => {
  const router = new DeliveryRouter();
  return (async () => {
    const a = await session(router, [['ua']], [{ status: 500 }, { status: 204 }]);
    const b = await session(router, [['ub']], [{ status: 201 }]);
    const c = await session(router, [['uc']], [{ status: 202 }]);
    a.beginCause();
    b.beginCause();
    b.beginCause();
    const unnamed = delivery('not json', 'kx');
    assert.equal(deliver(router, unnamed).status, 500, "a began first: its script answers");
    assert.deepEqual([a.deliveries, b.deliveries, c.deliveries].map((ds) => ds.includes(unnamed)), [true, true, false], 'every session causing has it; the one not causing has not');
    assert.equal(b.deliveries[0]!.answer?.status, 500, 'each records the answer it actually got');
    // Its next attempt follows the first session to take it.
    assert.equal(deliver(router, delivery('not json', 'kx')).status, 204);
    a.endCause();
    b.endCause();
    assert.equal(deliver(router, delivery('still not json', 'ky')).status, 201, 'b still causes one event');
    b.endCause();
    assert.equal(deliver(router, delivery('nobody causes', 'kz')).status, 204, 'nobody causing and three open: nobody takes it');
    assert.equal(c.deliveries.length, 0);
    a.end();
    b.end();
    c.end();
  })();
});

test('the address lock is taken in turn, remembers the address last set up, and is released when its session ends', async () => {
  const router = new DeliveryRouter();
  const a = await session(router, [['ua']], [{ status: 204 }]);
  const b = await session(router, [['ub']], [{ status: 204 }]);
  assert.equal(await a.lockAddress(), undefined, 'nothing set up yet');
  let bGot: string | undefined | null = null;
  const bWaits = b.lockAddress().then((address) => (bGot = address));
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(bGot, null, 'b waits while a sets up the address');
  a.unlockAddress('http://receiver/hook?ptas-address=b');
  await bWaits;
  assert.equal(bGot, 'http://receiver/hook?ptas-address=b', 'b is told the address a left set up');
  b.unlockAddress();
  assert.equal(await a.lockAddress(), 'http://receiver/hook?ptas-address=b', 'releasing without setting up keeps the address');
  const bAgain = b.lockAddress();
  a.end();
  assert.equal(await bAgain, 'http://receiver/hook?ptas-address=b', "an ended session's lock is released");
  b.end();
});

test('late attempts of an ended session are acknowledged and left out; its user is held until they are', async () => {
  const router = new DeliveryRouter();
  const retrying = await session(router, [['u']], [{ status: 500 }], 60_000);
  assert.equal(deliver(router, delivery(event('u', 1), 'k1')).status, 500);
  retrying.end();
  let next: Awaited<ReturnType<typeof session>> | undefined;
  const waiting = session(router, [['u']], [{ status: 503 }]).then((s) => (next = s));
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(next, undefined, 'held: a retry of the unacknowledged event may still come');
  // The retry under a fresh key (the same content) is acknowledged, which ends the hold.
  assert.equal(deliver(router, delivery(event('u', 1), 'k1-again')).status, 204);
  await waiting;
  // The same key and content once more: still a late attempt, not the new session's event.
  const late = delivery(event('u', 1), 'k1');
  router.route(late);
  assert.equal(next!.earlier.length, 1);
  assert.equal(next!.deliveries.length, 0);
  // Once acknowledged, an identical delivery is a new event of the session holding the user.
  late.answer = { status: 204, delayMs: 0, written: true };
  router.answered(late);
  assert.equal(deliver(router, delivery(event('u', 1), 'k1')).status, 503);
  assert.equal(next!.deliveries.length, 1);
  next!.end();
});

test('a hold ends after holdMs when no retry comes', async () => {
  const router = new DeliveryRouter();
  const retrying = await session(router, [['u']], [{ status: 500 }], 30);
  deliver(router, delivery(event('u'), 'k'));
  retrying.end();
  const started = performance.now();
  const next = await session(router, [['u']], [{ status: 204 }]);
  assert.ok(performance.now() - started >= 25, 'waited out the hold');
  next.end();
});

const agent = new Agent({ keepAliveTimeout: 100 });
async function post(url: string, body: unknown, key: string): Promise<number> {
  const res = await request(url, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', [IDEMPOTENCY_HEADER]: key }, dispatcher: agent });
  await res.body.dump();
  return res.statusCode;
}

test('over the hub: a worker mirrors its session (deliveries, answers written later, the end) on its own clock', async () => {
  const hub = new WebhookHub();
  const server = await serveHub(hub);
  try {
    const client = new HubClient(server.url);
    const receiver = { listenHost: '127.0.0.1', listenPort: 0, path: '/hook' };
    const base = { receiverKey: 'target', receiver, holdMs: 0 };
    const slow = await client.openSession({ ...base, users: [['ua']], script: [{ status: 204, delayMs: 150 }] });
    const fast = await client.openSession({ ...base, users: [['ua'], ['ub']], script: [{ status: 202 }] });
    assert.equal(slow.url, fast.url, 'one receiver per target');
    assert.deepEqual(fast.userIds, ['ub']);
    const notedAt = await fast.beginCause();
    assert.equal(await post(fast.url, event('ub'), 'kb'), 202);
    const taken = await fast.waitFor(() => true, 2_000);
    assert.ok(taken && taken.receivedAtMs >= notedAt, 'the delivery came after the cause was noted, on one clock');
    assert.ok(Math.abs(taken.receivedAtMs - performance.now()) < 1_000, 'times are on this process clock');
    await fast.endCause();
    assert.equal(await fast.lockAddress(), undefined);
    const slowWaits = slow.lockAddress();
    await fast.unlockAddress('http://127.0.0.1/hook?ptas-address=b');
    assert.equal(await slowWaits, 'http://127.0.0.1/hook?ptas-address=b', 'the address lock over the hub, in turn');
    await slow.unlockAddress();
    assert.equal(await post(slow.url, event('ua'), 'ka'), 204);
    const held = await slow.waitFor(() => true, 2_000);
    // Ending waits for everything the session was told before its end.
    await slow.end();
    await fast.end();
    const { answeredAfterMs, ...answer } = held?.answer ?? {};
    assert.deepEqual(answer, { status: 204, delayMs: 150, written: true }, 'the answer written later reached the mirror');
    assert.ok(answeredAfterMs !== undefined && answeredAfterMs >= 150, 'with when it was written in full');
    assert.equal(slow.isOpen, false);
    await assert.rejects(new HubClient(`${server.url}x`).openSession({ ...base, users: [['ua']], script: [{ status: 204 }] }), /clock/);
  } finally {
    await server.close();
    await hub.close();
  }
});

/**
 * A TCP relay in front of the hub that drops a connection when a second
 * request arrives on it: what a client sees when it reuses a kept-alive
 * connection at the moment the server's keep-alive timeout closes it.
 */
async function closingOnReuse(upstream: URL): Promise<{ url: string; close: () => Promise<void> }> {
  const relay = net.createServer((client) => {
    const hub = net.connect(Number(upstream.port), upstream.hostname);
    let requests = 0;
    client.on('data', (chunk) => {
      requests += chunk.toString('latin1').match(/^(GET|POST) \S+ HTTP\/1\.1\r$/gm)?.length ?? 0;
      if (requests > 1) return client.destroy();
      hub.write(chunk);
    });
    hub.on('data', (chunk) => client.write(chunk));
    client.on('close', () => hub.destroy());
    hub.on('close', () => client.destroy());
    client.on('error', () => hub.destroy());
    hub.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const { port } = relay.address() as net.AddressInfo;
  return { url: `http://127.0.0.1:${port}${upstream.pathname}`, close: () => new Promise((resolve) => relay.close(() => resolve())) };
}

test('over the hub: no control call reuses a connection the hub may be closing (a check idle longer than its keep-alive)', async () => {
  const hub = new WebhookHub();
  const server = await serveHub(hub);
  const relay = await closingOnReuse(new URL(server.url));
  try {
    const client = new HubClient(relay.url);
    const receiver = { listenHost: '127.0.0.1', listenPort: 0, path: '/hook' };
    const session = await client.openSession({ receiverKey: 'target', receiver, holdMs: 0, users: [['ua']], script: [{ status: 204 }] });
    for (let round = 0; round < 5; round++) {
      await session.beginCause();
      await session.endCause();
      await session.lockAddress();
      await session.unlockAddress();
    }
    await session.end();
  } finally {
    await relay.close();
    await server.close();
    await hub.close();
  }
});

test('unacknowledged events are remembered up to a bound, the latest delivered kept: an attempt of one forgotten is routed as a new event', async () => {
  const replay = (router: DeliveryRouter) => {
    const sent = [1, 2, 3].map((n) => ({ body: event('u', n), key: `k${n}` }));
    return { sent, again: (n: number) => deliver(router, delivery(sent[n - 1]!.body, sent[n - 1]!.key)) };
  };
  for (const remembered of [2, undefined]) {
    const router = new DeliveryRouter(remembered);
    const first = await session(router, [['u']], [{ status: 500 }]);
    const events = replay(router);
    for (let n = 1; n <= 3; n++) assert.equal(events.again(n).status, 500, 'refused: left unacknowledged');
    first.end();
    const next = await session(router, [['u']], [{ status: 201 }]);
    assert.equal(events.again(2).status, 204, 'an attempt of a remembered event is late: acknowledged, not the new session\'s');
    events.again(1);
    if (remembered === 2) {
      assert.deepEqual([next.earlier.length, next.deliveries.length], [1, 1], 'with room for two, the first event was forgotten: its attempt is taken as the new session\'s event');
    } else {
      assert.deepEqual([next.earlier.length, next.deliveries.length], [2, 0], `with room for ${REMEMBERED_EVENTS}, both are late`);
    }
    next.end();
  }
});
