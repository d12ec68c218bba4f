// The reference's user-update webhook end to end on loopback: its own
// register/trigger operations, a delivery the suite's verifiers accept, and
// the retry schedule after 500s and timeouts under one idempotency key; the
// delivery variants, the faults only the every-delivery check sees, and the
// verification-params faults (a failed verification, a redelivery).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request } from 'undici';
import { startReference, type RunningReference } from '../../reference/server.ts';
import { seedUsers } from '../../reference/fixtures/users.ts';
import { WEBHOOK_JWKS_PATH, WEBHOOK_REGISTER_PATH } from '../../reference/routes/webhooks.ts';
import { carriesEvent, idempotencyKey, paramsOf } from '../../src/webhooks/delivery.ts';
import { retryDelaysMs } from '../../reference/webhooks/dispatcher.ts';
import { verifyContentDigest } from '../../src/webhooks/digest.ts';
import { checkHttpDate } from '../../src/webhooks/http-date.ts';
import { WebhookReceiver } from '../../src/webhooks/receiver.ts';
import type { ResponseStep } from '../../src/webhooks/routing.ts';
import { verifyRfc9421 } from '../../src/webhooks/signature/rfc9421.ts';
import { WEBHOOK_DEFAULTS } from '../../src/config/sections/webhooks.ts';

const agent = new Agent({ keepAliveTimeout: 100 });
const USER = seedUsers(1)[0]!.id;
const started: Array<{ close(): Promise<void> }> = [];
after(async () => {
  await Promise.all(started.map((s) => s.close()));
  await agent.close();
});

async function call(base: string, method: string, path: string, body?: unknown, bearer?: string): Promise<{ status: number; json: any }> {
  const res = await request(base + path, {
    method: method as 'POST',
    headers: { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
    dispatcher: agent,
  });
  const text = await res.body.text();
  return { status: res.statusCode, json: text ? JSON.parse(text) : undefined };
}

async function setUp(options: Parameters<typeof startReference>[0] = {}): Promise<{ reference: RunningReference; receiver: WebhookReceiver; token: string }> {
  const reference = await startReference({ port: 0, ...options });
  const receiver = await WebhookReceiver.start({ listenHost: '127.0.0.1', listenPort: 0, path: '/hook' });
  started.push(reference, receiver);
  const { clientId, clientSecret } = reference.options;
  const token = (await call(reference.url, 'POST', '/v1/oauth/token', { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret })).json.access_token as string;
  return { reference, receiver, token };
}

const eventsPath = (userId: string) => `/reference/v1/users/${userId}/events`;

test('register and trigger validate their input and need a bearer', async () => {
  const { reference, token } = await setUp();
  assert.equal((await call(reference.url, 'PUT', WEBHOOK_REGISTER_PATH, { url: 'http://127.0.0.1:9/x' })).status, 401);
  assert.equal((await call(reference.url, 'PUT', WEBHOOK_REGISTER_PATH, { url: 'ftp://example.com/x' }, token)).status, 422);
  assert.equal((await call(reference.url, 'POST', eventsPath(USER), { action: 'verification', success: true }, token)).status, 409, 'no address set up yet');
  assert.equal((await call(reference.url, 'PUT', WEBHOOK_REGISTER_PATH, { url: 'http://127.0.0.1:9/x' }, token)).status, 200);
  assert.equal((await call(reference.url, 'POST', eventsPath('00000000-0000-4000-8000-000000000000'), { action: 'inactivation' }, token)).status, 404);
  for (const bad of [{ action: 'verify' }, { action: 'verification' }, { action: 'risk_evaluation', status: 'done' }]) {
    assert.equal((await call(reference.url, 'POST', eventsPath(USER), bad, token)).status, 422, JSON.stringify(bad));
  }
  const jwks = await call(reference.url, 'GET', WEBHOOK_JWKS_PATH);
  assert.equal(jwks.json.keys[0].crv, 'Ed25519');
});

const RISK_FINISHED = { action: 'risk_evaluation', status: 'finished' };

async function deliverOne(script: ResponseStep[], waitMs: number, options: Parameters<typeof startReference>[0] = {}, event: Record<string, unknown> = RISK_FINISHED) {
  const { reference, receiver, token } = await setUp(options);
  await call(reference.url, 'PUT', WEBHOOK_REGISTER_PATH, { url: receiver.url }, token);
  const session = await receiver.router.openSession({ users: [['suite-user']], script, holdMs: 0 });
  const triggered = await call(reference.url, 'POST', eventsPath(USER), event, token);
  assert.equal(triggered.status, 202);
  await session.waitFor(() => true, 2_000);
  await new Promise((resolve) => setTimeout(resolve, waitMs));
  session.end();
  return { deliveries: session.deliveries, jwks: (await call(reference.url, 'GET', WEBHOOK_JWKS_PATH)).json };
}

test('a delivery is a signed POST the suite verifies: digest, date, signature and params', async () => {
  const { deliveries, jwks } = await deliverOne([{ status: 204 }], 300);
  assert.equal(deliveries.length, 1, 'an acknowledged event is delivered once');
  const d = deliveries[0]!;
  assert.equal(d.method, 'POST');
  assert.deepEqual(paramsOf(d), { action: 'risk_evaluation', status: 'finished', user_pid: USER, timestamp: (paramsOf(d) as { timestamp: number }).timestamp });
  assert.equal(verifyContentDigest(d.fieldLines.find(([n]) => n === 'content-digest')?.[1], d.body, ['sha-256']).ok, true);
  assert.equal(checkHttpDate(d.fieldLines.find(([n]) => n === 'date')?.[1], d.receivedAt, 5).ok, true);
  const verdict = await verifyRfc9421(d, { jwks }, { requiredComponents: WEBHOOK_DEFAULTS.requiredComponents, skewSeconds: 5, now: d.receivedAt });
  assert.equal(verdict.verified, true, verdict.reason);
});

test('after 500s the event is retried with doubling delays, up to the attempt limit, under one key', async () => {
  const { deliveries } = await deliverOne([{ status: 500 }], 600, { webhookMaxAttempts: 3, webhookRetryBaseMs: 60 });
  assert.equal(deliveries.length, 3);
  assert.equal(new Set(deliveries.map(idempotencyKey)).size, 1);
  const [a, b, c] = deliveries.map((d) => d.receivedAtMs);
  assert.ok(b! - a! >= 55 && c! - b! >= 115, `gaps ${b! - a!} ms and ${c! - b!} ms should be about 60 and 120`);
});

test('an attempt that times out is retried', async () => {
  const { deliveries } = await deliverOne([{ status: 204, delayMs: 400 }, { status: 204 }], 500, { webhookTimeoutMs: 150, webhookRetryBaseMs: 50 });
  assert.equal(deliveries.length, 2);
  assert.equal(deliveries[0]!.answer?.written, false);
  assert.equal(idempotencyKey(deliveries[1]!), idempotencyKey(deliveries[0]!));
});

test('webhook-at-least-once: an acknowledged event comes once more, under its key and with its body; acknowledging that ends it', async () => {
  const { deliveries } = await deliverOne([{ status: 204 }], 400, { variants: ['webhook-at-least-once'], webhookRetryBaseMs: 50 });
  assert.equal(deliveries.length, 2);
  assert.equal(idempotencyKey(deliveries[1]!), idempotencyKey(deliveries[0]!));
  assert.ok(deliveries[1]!.body.equals(deliveries[0]!.body));
  assert.ok(deliveries[1]!.receivedAtMs - deliveries[0]!.receivedAtMs >= 45, 'after the first retry delay');
});

test('webhook-params-double-encoded: params is a JSON string holding the params object', async () => {
  const { deliveries } = await deliverOne([{ status: 204 }], 50, { faults: ['webhook-params-double-encoded'] });
  const { params } = JSON.parse(deliveries[0]!.body.toString('utf8')) as { params: unknown };
  assert.equal(typeof params, 'string');
  assert.equal((JSON.parse(params as string) as { action: string }).action, 'risk_evaluation');
});

const field = (d: { fieldLines: Array<[string, string]> }, name: string) => d.fieldLines.find(([n]) => n === name)?.[1];

test('webhook-unrelated-notifications: an offer-status notification before and after the event, each signed and digested', async () => {
  const { deliveries, jwks } = await deliverOne([{ status: 204 }], 300, { variants: ['webhook-unrelated-notifications'] });
  assert.equal(deliveries.length, 3);
  const kinds = deliveries.map((d) => (carriesEvent(d, { action: 'risk_evaluation' }, [USER]) ? 'event' : 'other'));
  assert.deepEqual(kinds.filter((k) => k === 'other').length, 2);
  assert.equal(new Set(deliveries.map(idempotencyKey)).size, 3, 'each notification has a key of its own');
  for (const d of deliveries) {
    assert.equal(verifyContentDigest(field(d, 'content-digest'), d.body).ok, true);
    const verdict = await verifyRfc9421(d, { jwks }, { requiredComponents: WEBHOOK_DEFAULTS.requiredComponents, skewSeconds: 5, now: d.receivedAt });
    assert.equal(verdict.verified, true, verdict.reason);
  }
});

test('delivery variants: sha-512 digest, charset, more covered components with expires', async () => {
  const variants = ['webhook-digest-sha512', 'webhook-json-charset', 'webhook-signature-more-components'];
  const { deliveries, jwks } = await deliverOne([{ status: 204 }], 200, { variants });
  const d = deliveries[0]!;
  assert.match(field(d, 'content-digest')!, /^sha-512=:/);
  assert.equal(field(d, 'content-type'), 'application/json; charset=utf-8');
  assert.match(field(d, 'signature-input')!, /^sig1=\("@method" "@target-uri" "host" "date" "content-digest" "content-type" "content-length" "x-bts-idempotency-key"\);created=\d+;expires=\d+;/);
  const verdict = await verifyRfc9421(d, { jwks }, { requiredComponents: ['host', 'content-length'], skewSeconds: 5, now: d.receivedAt });
  assert.equal(verdict.verified, true, verdict.reason);
});

test('webhook-retry-slower retries twenty times later; the profile then declares no schedule', async () => {
  assert.deepEqual(retryDelaysMs({ webhookRetryBaseMs: 50, webhookMaxAttempts: 3 }), [50, 100]);
  assert.deepEqual(retryDelaysMs({ webhookRetryBaseMs: 50, webhookMaxAttempts: 3 }, true), [1_000, 2_000]);
  const { deliveries } = await deliverOne([{ status: 500 }], 300, { variants: ['webhook-retry-slower'], webhookRetryBaseMs: 50 });
  assert.equal(deliveries.length, 1, 'no retry within 300 ms');
});

test('faults of every delivery: unsigned redeliveries, undigested other kinds', async () => {
  const unsigned = await deliverOne([{ status: 500 }, { status: 204 }], 300, { faults: ['webhook-redelivery-unsigned'], webhookRetryBaseMs: 50 });
  assert.deepEqual(unsigned.deliveries.map((d) => field(d, 'signature') !== undefined), [true, false]);

  const undigested = await deliverOne([{ status: 204 }], 300, { faults: ['webhook-other-kinds-undigested'] });
  assert.deepEqual(
    undigested.deliveries.map((d) => [carriesEvent(d, { action: 'risk_evaluation' }, [USER]), field(d, 'content-digest') !== undefined]).sort(),
    [[false, false], [false, false], [true, true]],
  );
});

test('faults of the verification params: a failed verification without success, redeliveries without timestamp (digested and signed as sent)', async () => {
  const faults = ['webhook-failed-verification-without-success'];
  const failed = await deliverOne([{ status: 204 }], 100, { faults }, { action: 'verification', success: false });
  assert.deepEqual(Object.keys(paramsOf(failed.deliveries[0]!)!).sort(), ['action', 'timestamp', 'user_pid']);
  const succeeded = await deliverOne([{ status: 204 }], 100, { faults }, { action: 'verification', success: true });
  assert.equal(paramsOf(succeeded.deliveries[0]!)!.success, true, 'a successful verification keeps success');

  const verification = { action: 'verification', success: true };
  const { deliveries, jwks } = await deliverOne([{ status: 500 }, { status: 204 }], 300, { faults: ['webhook-redelivery-without-timestamp'], webhookRetryBaseMs: 50 }, verification);
  assert.deepEqual(deliveries.map((d) => Object.keys(paramsOf(d)!).sort()), [['action', 'success', 'timestamp', 'user_pid'], ['action', 'success', 'user_pid']]);
  assert.equal(idempotencyKey(deliveries[1]!), idempotencyKey(deliveries[0]!));
  for (const d of deliveries) {
    assert.equal(verifyContentDigest(field(d, 'content-digest'), d.body).ok, true);
    const verdict = await verifyRfc9421(d, { jwks }, { requiredComponents: WEBHOOK_DEFAULTS.requiredComponents, skewSeconds: 5, now: d.receivedAt });
    assert.equal(verdict.verified, true, verdict.reason);
  }
});
