// The suite's webhook receiver: records deliveries byte for byte, answers as
// scripted (statuses, held-back answers), keeps late retries of earlier
// events out of a session, and caps bodies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request } from 'undici';
import { idempotencyKey } from '../../src/webhooks/delivery.ts';
import { WebhookReceiver } from '../../src/webhooks/receiver.ts';

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

async function withReceiver(fn: (receiver: WebhookReceiver) => Promise<void>, maxBodyBytes?: number): Promise<void> {
  const receiver = await WebhookReceiver.start({ listenHost: '127.0.0.1', listenPort: 0, path: '/hook', maxBodyBytes });
  try {
    await fn(receiver);
  } finally {
    await receiver.close();
  }
}

test('records method, field lines in order, raw body and answers per the script', async () => {
  await withReceiver(async (receiver) => {
    assert.match(receiver.url, /^http:\/\/127\.0\.0\.1:\d+\/hook$/);
    const session = receiver.beginSession([{ status: 500 }, { status: 204 }]);
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

test('a held-back answer makes the sender time out, and the receiver notes it was not written', async () => {
  await withReceiver(async (receiver) => {
    const session = receiver.beginSession([{ status: 204, delayMs: 400 }]);
    assert.equal(await post(receiver.url, '{}', {}, 100), 'timeout');
    await new Promise((resolve) => setTimeout(resolve, 500));
    session.end();
    assert.deepEqual(session.deliveries[0]!.answer, { status: 204, delayMs: 400, written: false });
  });
});

test('late attempts of an event seen before the session are acknowledged and left out of it', async () => {
  await withReceiver(async (receiver) => {
    const earlier = receiver.beginSession([{ status: 500 }]);
    assert.equal(await post(receiver.url, '{"params":{"n":1}}', { 'x-bts-idempotency-key': 'old' }), 500);
    earlier.end();

    const session = receiver.beginSession([{ status: 503 }]);
    // A retry of the old event (same key and content, other formatting) is not this session's.
    assert.equal(await post(receiver.url, '{"params": {"n": 1}}', { 'x-bts-idempotency-key': 'old' }), 204);
    // The same key with other content is a new event (a key reused for distinct events shows up this way).
    assert.equal(await post(receiver.url, '{"params":{"n":2}}', { 'x-bts-idempotency-key': 'old' }), 503);
    session.end();
    assert.equal(session.earlier.length, 1);
    assert.equal(session.deliveries.length, 1);
    assert.equal(receiver.deliveries.length, 3);
  });
});

test('waitFor resolves on a matching delivery, or undefined when time is up', async () => {
  await withReceiver(async (receiver) => {
    const session = receiver.beginSession([{ status: 204 }]);
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

test('one session at a time; bodies beyond the cap are cut and answered 413', async () => {
  await withReceiver(async (receiver) => {
    const session = receiver.beginSession([{ status: 204 }]);
    assert.throws(() => receiver.beginSession([{ status: 204 }]), /already open/);
    const status = await post(receiver.url, 'x'.repeat(5_000)).catch(() => 'reset');
    assert.ok(status === 413 || status === 'reset', String(status));
    session.end();
    assert.equal(receiver.deliveries[0]!.bodyTruncated, true);
    assert.equal(receiver.deliveries[0]!.body.length, 1_024);
  }, 1_024);
});
