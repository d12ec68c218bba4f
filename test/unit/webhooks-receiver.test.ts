// The suite's webhook receiver with one session at a time: records
// deliveries byte for byte, answers as scripted (statuses, held-back answers,
// per event), keeps late retries of earlier events out of a session, and caps
// bodies; and how a delivery is recognised as the event a check caused.
// Sessions side by side: test/unit/webhooks-routing.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request } from 'undici';
import { carriesEvent, eventLayers, idempotencyKey, isRepeatOf } from '../../src/webhooks/delivery.ts';
import { WebhookReceiver, type ReceiverOptions } from '../../src/webhooks/receiver.ts';
import { syntheticDelivery } from '../support/deliveries.ts';

const agent = new Agent({ keepAliveTimeout: 100 });

async function post(url: string, body: string, headers: Record<string, string> = {}, timeoutMs = 2_000): Promise<number | 'timeout'> {
  try {
    const res = await request(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers }, dispatcher: agent, signal: AbortSignal.timeout(timeoutMs) });
    await res.body.dump();
    return res.statusCode;
  } catch (error) {
    if ((error as Error).name === 'TimeoutError') return 'timeout';
    throw error;
  }
}

async function withReceiver(fn: (receiver: WebhookReceiver) => Promise<void>, options: Pick<ReceiverOptions, 'maxBodyBytes' | 'flood'> = {}): Promise<void> {
  const receiver = await WebhookReceiver.start({ listenHost: '127.0.0.1', listenPort: 0, path: '/hook', ...options });
  try {
    await fn(receiver);
  } finally {
    await receiver.close();
  }
}

test('records method, field lines in order, raw body and answers per the script', async () => {
  await withReceiver(async (receiver) => {
    assert.match(receiver.url, /^http:\/\/127\.0\.0\.1:\d+\/hook$/);
    const session = await receiver.router.openSession({ users: [['suite-user']], script: [{ status: 500 }, { status: 204 }], holdMs: 0 });
    const body = '{"params": {"a": 1}}';
    assert.equal(await post(receiver.url, body, { 'x-bts-idempotency-key': 'k1' }), 500);
    assert.equal(await post(receiver.url, body, { 'x-bts-idempotency-key': 'k1' }), 204);
    assert.equal(await post(`${receiver.url}?x=1`, body, { 'x-bts-idempotency-key': 'k1' }), 204, 'the last step repeats');
    session.end();

    const [first, , third] = session.deliveries;
    assert.equal(first!.method, 'POST');
    assert.equal(first!.body.toString(), body, 'the body is kept byte for byte');
    assert.equal(idempotencyKey(first!), 'k1');
    assert.deepEqual(first!.fieldLines.find(([n]) => n === 'content-type'), ['content-type', 'application/json']);
    assert.equal(third!.requestTarget, '/hook?x=1');
    assert.equal(third!.targetUri, `${receiver.url}?x=1`);
    assert.deepEqual(
      session.deliveries.map((d) => d.answer?.status),
      [500, 204, 204],
    );
  });
});

test('a held-back answer makes the sender time out; the receiver knows at the hang-up, not at the end of the hold', async () => {
  await withReceiver(async (receiver) => {
    const session = await receiver.router.openSession({ users: [['suite-user']], script: [{ status: 204, delayMs: 2_000 }], holdMs: 0 });
    const started = performance.now();
    assert.equal(await post(receiver.url, '{}', {}, 100), 'timeout');
    const answer = await session.answerOf(session.deliveries[0]!, 1_000);
    assert.ok(performance.now() - started < 1_000, 'known well before the 2 s hold ends');
    assert.equal(answer?.written, false);
    assert.equal(answer?.status, 204);
    // The sender's 100 ms count from before the receiver saw the request, so the receiver may measure a little less.
    assert.ok(answer!.hungUpAfterMs! > 0 && answer!.hungUpAfterMs! < 1_000, `hung up after ${answer!.hungUpAfterMs} ms, well before the 2 s hold ended`);
    session.end();
  });
});

test('late attempts of an event seen before the session are acknowledged and left out of it', async () => {
  await withReceiver(async (receiver) => {
    const earlier = await receiver.router.openSession({ users: [['suite-user']], script: [{ status: 500 }], holdMs: 0 });
    assert.equal(await post(receiver.url, '{"params":{"n":1}}', { 'x-bts-idempotency-key': 'old' }), 500);
    earlier.end();

    const session = await receiver.router.openSession({ users: [['suite-user']], script: [{ status: 503 }], holdMs: 0 });
    // A retry of the old event (same key and content, other formatting) is not this session's.
    assert.equal(await post(receiver.url, '{"params": {"n": 1}}', { 'x-bts-idempotency-key': 'old' }), 204);
    // The same key with other content is a new event (a key reused for distinct events shows up this way).
    assert.equal(await post(receiver.url, '{"params":{"n":2}}', { 'x-bts-idempotency-key': 'old' }), 503);
    session.end();
    assert.equal(session.earlier.length, 1);
    assert.equal(session.deliveries.length, 1);
    assert.equal(earlier.deliveries.length, 1);
    assert.equal(session.deliveries[0]!.seq, 3, 'every delivery kept is numbered, a late one too');
  });
});

test('a delivery identical to an event the receiver acknowledged is a new event of the next session', async () => {
  await withReceiver(async (receiver) => {
    const earlier = await receiver.router.openSession({ users: [['suite-user']], script: [{ status: 204 }], holdMs: 0 });
    // An implementation that reuses keys sends two events of one second byte for byte alike.
    assert.equal(await post(receiver.url, '{"params":{"n":1}}', { 'x-bts-idempotency-key': 'same' }), 204);
    earlier.end();
    const session = await receiver.router.openSession({ users: [['suite-user']], script: [{ status: 503 }], holdMs: 0 });
    assert.equal(await post(receiver.url, '{"params":{"n":1}}', { 'x-bts-idempotency-key': 'same' }), 503);
    session.end();
    assert.equal(session.deliveries.length, 1);
    assert.equal(session.earlier.length, 0);
  });
});

test('waitFor resolves on a matching delivery, or undefined when time is up', async () => {
  await withReceiver(async (receiver) => {
    const session = await receiver.router.openSession({ users: [['suite-user']], script: [{ status: 204 }], holdMs: 0 });
    const waiting = session.waitFor((d) => idempotencyKey(d) === 'b', 2_000);
    await post(receiver.url, '{}', { 'x-bts-idempotency-key': 'a' });
    await post(receiver.url, '{}', { 'x-bts-idempotency-key': 'b' });
    assert.equal(idempotencyKey((await waiting)!), 'b');
    const started = performance.now();
    assert.equal(await session.waitFor((d) => idempotencyKey(d) === 'never', 150), undefined);
    assert.ok(performance.now() - started >= 140);
    session.end();
  });
});

test('bodies beyond the cap are cut and answered 413', async () => {
  await withReceiver(async (receiver) => {
    const session = await receiver.router.openSession({ users: [['suite-user']], script: [{ status: 204 }], holdMs: 0 });
    const status = await post(receiver.url, 'x'.repeat(5_000)).catch(() => 'reset');
    assert.ok(status === 413 || status === 'reset', String(status));
    session.end();
    assert.equal(session.deliveries[0]!.bodyTruncated, true);
    assert.equal(session.deliveries[0]!.body.length, 1_024);
  }, { maxBodyBytes: 1_024 });
});

test('a flood is a rate, not a total: beyond it deliveries are refused 503 unkept, and once it passes they are kept again', async () => {
  await withReceiver(async (receiver) => {
    const session = await receiver.router.openSession({ users: [['suite-user']], script: [{ status: 204 }], holdMs: 0 });
    const send = (n: number) => post(receiver.url, `{"params":{"n":${n}}}`, { 'x-bts-idempotency-key': `k${n}` });
    const burst = async (from: number) => {
      const statuses: Array<number | string> = [];
      for (let n = from; n < from + 4; n++) statuses.push(await send(n));
      return statuses;
    };
    assert.deepEqual(await burst(0), [204, 204, 204, 503], 'the fourth within the window is a flood');
    assert.equal(receiver.dropped, 1);
    // A receiver that counted a total (as it once did: 1,000 for its whole life) would refuse these too.
    await new Promise((resolve) => setTimeout(resolve, 400));
    assert.deepEqual(await burst(10), [204, 204, 204, 503]);
    session.end();
    assert.deepEqual(session.deliveries.map((d) => d.seq), [1, 2, 3, 4, 5, 6], 'only kept deliveries are numbered');
  }, { flood: { deliveries: 3, windowMs: 300 } });
});

test('the script applies per event: other deliveries do not use up the steps of an event', async () => {
  await withReceiver(async (receiver) => {
    const session = await receiver.router.openSession({ users: [['suite-user']], script: [{ status: 500 }, { status: 204 }], holdMs: 0 });
    const event = '{"params":{"action":"verification"}}';
    const other = '{"event":"offer_status","params":{"status":"expired"}}';
    assert.equal(await post(receiver.url, other, { 'x-bts-idempotency-key': 'o1' }), 500, 'first attempt of another notification');
    assert.equal(await post(receiver.url, event, { 'x-bts-idempotency-key': 'e1' }), 500, 'first attempt of the event, despite the delivery before it');
    assert.equal(await post(receiver.url, event, { 'x-bts-idempotency-key': 'e1' }), 204, 'its second attempt');
    session.end();
  });
});

const delivery = syntheticDelivery;

test('an event is recognised by its action and user, in params or at the top level', () => {
  const user = 'E3F05305-3BFD-4F74-ACE6-67E1968EC340';
  assert.equal(carriesEvent(delivery(1, { params: { action: 'verification', user_pid: user.toLowerCase() } }), { action: 'verification' }, [user]), true);
  assert.equal(carriesEvent(delivery(2, { action: 'verification', user_pid: user, timestamp: 1 }), { action: 'verification' }, [user]), true, 'fields at the top level');
  assert.equal(carriesEvent(delivery(3, { params: { action: 'inactivation', user: { id: user } } }), { action: 'inactivation' }, [user]), true, 'the user named a level down');
  assert.equal(carriesEvent(delivery(4, { event: 'offer_status', params: { status: 'expired', user_pid: user } }), { action: 'verification' }, [user]), false, 'another kind');
  assert.equal(carriesEvent(delivery(5, { params: { action: 'verification', user_pid: 'someone-else' } }), { action: 'verification' }, [user]), false, 'another user');
  assert.equal(carriesEvent(delivery(6, 'not json'), { action: 'verification' }, [user]), false);
  // Exactly: also the success or status the event was caused with; another identifier of the user counts too.
  const failed = delivery(8, { params: { action: 'verification', success: false, user_pid: 'pid-7' } });
  assert.equal(carriesEvent(failed, { action: 'verification', success: false }, [user, 'pid-7'], true), true);
  assert.equal(carriesEvent(failed, { action: 'verification', success: true }, [user, 'pid-7'], true), false);
  assert.equal(carriesEvent(failed, { action: 'verification', success: true }, [user, 'pid-7']), true, 'leniently, the action and user suffice');
  assert.deepEqual(eventLayers(delivery(7, { params: { a: 1 }, b: 2 })), [{ a: 1 }, { params: { a: 1 }, b: 2 }]);
});

test('a repeat is the same content, or the same key with the same action, success and status', () => {
  const first = delivery(1, { params: { action: 'verification', success: true, timestamp: 1 } }, 'k1');
  assert.equal(isRepeatOf(delivery(2, { params: { timestamp: 1, success: true, action: 'verification' } }, 'k9'), first), true, 'same content, other key and order');
  assert.equal(isRepeatOf(delivery(3, { params: { action: 'verification', success: true, timestamp: 2 } }, 'k1'), first), true, 'body rebuilt per attempt under the key');
  assert.equal(isRepeatOf(delivery(4, { params: { action: 'verification', success: false, timestamp: 2 } }, 'k1'), first), false, 'a distinct event sharing the key');
  assert.equal(isRepeatOf(delivery(5, { params: { action: 'verification', success: true, timestamp: 2 } }, 'k2'), first), false);
});
