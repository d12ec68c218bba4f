// The reference configured the way real deployments are, over real HTTP on
// loopback: JWK Sets behind the bearer token, slow offers by an amount in the
// body, a renamed user-id header, hmac-sha256 webhook signatures, and the
// signature faults of those modes, each delivery judged by the suite's own
// verifier. The profiles these variants adjust are checked too.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { startReference, type RunningReference } from '../../reference/server.ts';
import { seedUsers } from '../../reference/fixtures/users.ts';
import { DEMO_WEBHOOK_SHARED_SECRET, REFERENCE_DEFAULTS, type ReferenceOptions } from '../../reference/options.ts';
import { referenceProfile } from '../../reference/profile.ts';
import { WEBHOOK_JWKS_PATH, WEBHOOK_REGISTER_PATH } from '../../reference/routes/webhooks.ts';
import { WebhookReceiver } from '../../src/webhooks/receiver.ts';
import type { ReceivedDelivery } from '../../src/webhooks/delivery.ts';
import { verifyRfc9421, type Rfc9421Keys } from '../../src/webhooks/signature/rfc9421.ts';
import type { SignatureVerdict } from '../../src/webhooks/signature/verdict.ts';
import { validateProfile } from '../../src/config/validate.ts';
import { offerRecipes } from '../../src/config/sections/offer-recipes.ts';
import { variantByName } from '../../reference/variants/index.ts';

const DEPLOYED_API = ['webhook-signature-ecdsa-p256', 'webhook-signature-more-components', 'jwks-requires-bearer', 'offer-slow-by-body-value'];

const USER = seedUsers(1)[0]!.id;
const started: Array<{ close(): Promise<void> }> = [];
after(() => Promise.all(started.map((s) => s.close())));

interface Answer {
  status: number;
  json: any;
  ms: number;
}

/** A reference on a free port with a token, and a caller that sends it unless told not to. */
async function reference(options: Partial<ReferenceOptions> = {}) {
  const ref: RunningReference = await startReference({ port: 0, acceptPredefinedTimeMs: 150, ...options });
  started.push(ref);
  let token = '';
  const call = async (method: string, path: string, init: { headers?: Record<string, string>; body?: unknown; bearer?: boolean } = {}): Promise<Answer> => {
    const headers: Record<string, string> = { ...init.headers };
    if (init.bearer !== false && token) headers.authorization = `Bearer ${token}`;
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    const t0 = performance.now();
    const res = await fetch(ref.url + path, { method, headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : undefined, ms: performance.now() - t0 };
  };
  const issued = await call('POST', '/v1/oauth/token', { body: { grant_type: 'client_credentials', client_id: ref.options.clientId, client_secret: ref.options.clientSecret } });
  token = issued.json.access_token;
  const newUser = async (): Promise<string> => (await call('POST', '/reference/v1/users')).json.data.id;
  return { ref, call, newUser };
}

test('jwks-requires-bearer: both JWK Sets answer 401 without a bearer token and 200 with one; by default neither asks', async () => {
  const guarded = await reference({ variants: ['jwks-requires-bearer'] });
  const plain = await reference();
  for (const path of ['/.well-known/jwks.json', WEBHOOK_JWKS_PATH]) {
    assert.equal((await guarded.call('GET', path, { bearer: false })).status, 401, `${path} without a bearer`);
    assert.equal((await guarded.call('GET', path, { bearer: false, headers: { authorization: 'Bearer not-a-token' } })).status, 401, `${path} with an invalid bearer`);
    const withBearer = await guarded.call('GET', path);
    assert.equal(withBearer.status, 200, path);
    assert.equal(withBearer.json.keys.length, 1, path);
    assert.equal((await plain.call('GET', path, { bearer: false })).status, 200, `${path} by default`);
  }
});

test('offer-slow-by-body-value: an amount of 5000 or more is slow (202), a smaller one fast (200); processingMs is ignored', async () => {
  const r = await reference({ variants: ['offer-slow-by-body-value'] });
  const acceptNew = async (body: unknown): Promise<Answer> => {
    const user = await r.newUser();
    const created = await r.call('POST', `/reference/v1/users/${user}/offers`, { body });
    assert.equal(created.status, 201, JSON.stringify(created.json));
    return r.call('PATCH', `/v1/offers/${created.json.data.id}/accept`, { headers: { 'svc-user-id': user } });
  };
  assert.equal((await acceptNew({ amount: '10.00', currency: 'EUR' })).status, 200);
  assert.equal((await acceptNew({ amount: '4999.99', currency: 'EUR', processingMs: 60_000 })).status, 200, 'processingMs is ignored');
  const slow = await acceptNew({ amount: '9999.00', currency: 'EUR' });
  assert.equal(slow.status, 202);
  assert.ok(slow.ms < 1_000, `202 without waiting for processing (${Math.round(slow.ms)} ms)`);
  assert.equal((await acceptNew({ amount: '5000', currency: 'EUR', processingMs: 0 })).status, 202, 'the threshold itself is slow');
});

test('offer-slow-by-body-value: validity_seconds sets the validity; a malformed or missing amount is 422', async () => {
  const r = await reference({ variants: ['offer-slow-by-body-value'] });
  const create = (body?: unknown) => r.call('POST', `/reference/v1/users/${USER}/offers`, { body });
  const expiring = await create({ amount: '10.00', currency: 'EUR', validity_seconds: 1, validitySeconds: 600 });
  assert.equal(Date.parse(expiring.json.data.valid_until) - Date.parse(expiring.json.data.created_at), 1_000);
  for (const body of [undefined, {}, { amount: 10, currency: 'EUR' }, { amount: '1e4', currency: 'EUR' }, { amount: '-5.00', currency: 'EUR' }, { amount: '10.00' }, { amount: '10.00', currency: 'EUR', validity_seconds: 0 }]) {
    assert.equal((await create(body)).status, 422, JSON.stringify(body));
  }
  const plain = await reference();
  assert.equal((await plain.call('POST', `/reference/v1/users/${USER}/offers`, { body: { amount: 'not a number' } })).status, 201, 'without the variant the body is processingMs/validitySeconds');
});

test('user-id-header-renamed: accept, offer status and withdrawal address read x-partner-user-id, and svc-user-id names nobody', async () => {
  const r = await reference({ variants: ['user-id-header-renamed'] });
  const user = await r.newUser();
  const offer = (await r.call('POST', `/reference/v1/users/${user}/offers`, { body: {} })).json.data.id as string;
  const missing = await r.call('PATCH', `/v1/offers/${offer}/accept`, { headers: { 'svc-user-id': user } });
  assert.equal(missing.status, 422);
  assert.match(missing.json.error.message, /x-partner-user-id header is required/);
  assert.equal((await r.call('GET', `/reference/v1/offers/${offer}`, { headers: { 'x-partner-user-id': seedUsers(1)[3]!.id } })).status, 403, 'offer status reads it too');
  assert.equal((await r.call('PATCH', `/v1/offers/${offer}/accept`, { headers: { 'x-partner-user-id': user } })).status, 200);

  const address = { ...referenceProfile(r.ref.url).cryptoTransfers!.withdrawalAddress!, destination_tag: '12345' };
  const withSpecName = await r.call('POST', '/v1/crypto-transfers/addresses/withdrawals', { headers: { 'svc-user-id': USER }, body: address });
  assert.equal(withSpecName.status, 422);
  assert.match(withSpecName.json.error.message, /x-partner-user-id header is required/);
  const withRenamed = await r.call('POST', '/v1/crypto-transfers/addresses/withdrawals', { headers: { 'x-partner-user-id': USER }, body: address });
  assert.equal(withRenamed.status, 200, JSON.stringify(withRenamed.json));
});

test('options.userIdHeader names the header the variant reads', async () => {
  const r = await reference({ variants: ['user-id-header-renamed'], userIdHeader: 'x-edition-user' });
  const user = await r.newUser();
  const offer = (await r.call('POST', `/reference/v1/users/${user}/offers`, { body: {} })).json.data.id as string;
  assert.equal((await r.call('PATCH', `/v1/offers/${offer}/accept`, { headers: { 'x-partner-user-id': user } })).status, 422);
  assert.equal((await r.call('PATCH', `/v1/offers/${offer}/accept`, { headers: { 'X-Edition-User': user } })).status, 200);
});

/** One delivery of a risk-evaluation event, and the reference's webhook JWK Set (fetched with the bearer). */
async function oneDelivery(options: Partial<ReferenceOptions>): Promise<{ delivery: ReceivedDelivery; jwks: any }> {
  const r = await reference(options);
  const receiver = await WebhookReceiver.start({ listenHost: '127.0.0.1', listenPort: 0, path: '/hook' });
  started.push(receiver);
  await r.call('PUT', WEBHOOK_REGISTER_PATH, { body: { url: receiver.url } });
  const session = await receiver.router.openSession({ users: [['suite-user']], script: [{ status: 204 }], holdMs: 0 });
  assert.equal((await r.call('POST', `/reference/v1/users/${USER}/events`, { body: { action: 'risk_evaluation', status: 'finished' } })).status, 202);
  const delivery = await session.waitFor(() => true, 2_000);
  session.end();
  assert.ok(delivery, 'a delivery arrived');
  return { delivery, jwks: (await r.call('GET', WEBHOOK_JWKS_PATH)).json };
}

const COVERED = ['@method', '@target-uri', 'content-type', 'content-digest', 'date', 'x-bts-idempotency-key'];
const verify = (delivery: ReceivedDelivery, keys: Rfc9421Keys): Promise<SignatureVerdict> =>
  verifyRfc9421(delivery, keys, { requiredComponents: COVERED, skewSeconds: 60, now: delivery.receivedAt });

test('webhook-signature-hmac: deliveries verify with the shared secret and hmac-sha256; the JWK Set publishes nothing', async () => {
  const { delivery, jwks } = await oneDelivery({ variants: ['webhook-signature-hmac'] });
  assert.deepEqual(jwks, { keys: [] }, 'a shared secret is never published');
  const input = delivery.fieldLines.find(([n]) => n === 'signature-input')?.[1] ?? '';
  assert.match(input, /;alg="hmac-sha256"/);
  const verdict = await verify(delivery, { sharedSecret: Buffer.from(DEMO_WEBHOOK_SHARED_SECRET, 'base64') });
  assert.equal(verdict.verified, true, verdict.reason);
  const otherSecret = await verify(delivery, { sharedSecret: Buffer.alloc(32, 1) });
  assert.equal(otherSecret.verified, false, 'only the shared secret verifies');

  const custom = Buffer.alloc(32, 7).toString('base64');
  const configured = await oneDelivery({ variants: ['webhook-signature-hmac'], webhookSharedSecret: custom });
  assert.equal((await verify(configured.delivery, { sharedSecret: Buffer.from(custom, 'base64') })).verified, true, 'options.webhookSharedSecret is the key');
});

test('the signature faults of these modes: each delivery fails verification with its own reason', async () => {
  const expired = await oneDelivery({ faults: ['webhook-signature-expired'] });
  const expiredVerdict = await verify(expired.delivery, { jwks: expired.jwks });
  assert.equal(expiredVerdict.problem, 'signature');
  assert.match(expiredVerdict.reason, /expired 30\d s before it arrived/);
  assert.doesNotMatch(expiredVerdict.reason, /does not verify/, 'its bytes are valid: only the time is wrong');

  const outside = await oneDelivery({ faults: ['webhook-signature-component-outside-base'] });
  assert.match(outside.delivery.fieldLines.find(([n]) => n === 'signature-input')![1], /"content-digest"/, 'content-digest is declared covered');
  const outsideVerdict = await verify(outside.delivery, { jwks: outside.jwks });
  assert.equal(outsideVerdict.problem, 'signature');
  assert.match(outsideVerdict.reason, /sig1 does not verify with webhook-[0-9a-f-]+ \(ed25519\)$/);

  const der = await oneDelivery({ faults: ['webhook-signature-ecdsa-der'] });
  assert.equal(der.jwks.keys[0].crv, 'P-256', 'the DER fault signs with an ECDSA key');
  const derVerdict = await verify(der.delivery, { jwks: der.jwks });
  assert.equal(derVerdict.verified, false);
  assert.match(derVerdict.reason, /\(ecdsa-p256-sha256\): the signature is DER-encoded \((6\d|7[0-2]) bytes\); RFC 9421 3\.3\.4 requires the 64-byte r‖s concatenation/);
});

test('the profiles of these variants: what a certification team writes for each, valid against the schema', () => {
  const url = 'http://127.0.0.1:1';
  const plain = referenceProfile(url);
  const profileOf = (...variants: string[]) => referenceProfile(url, { variants });
  for (const name of ['webhook-signature-hmac', 'jwks-requires-bearer', 'offer-slow-by-body-value', 'user-id-header-renamed']) validateProfile(profileOf(name), name);
  validateProfile(profileOf(...DEPLOYED_API, 'user-id-header-renamed'), 'the deployed configuration');

  assert.equal(profileOf('jwks-requires-bearer').auth?.jwksAccess, 'bearer');

  const hmac = profileOf('webhook-signature-hmac').webhooks?.signature;
  assert.deepEqual(hmac, { scheme: 'rfc9421', sharedSecret: DEMO_WEBHOOK_SHARED_SECRET, requiredComponents: (plain.webhooks?.signature as { requiredComponents: unknown }).requiredComponents });
  const ownSecret = variantByName('webhook-signature-hmac')!.adjustProfile!(plain, { ...REFERENCE_DEFAULTS, webhookSharedSecret: 'AAAAAAAAAAAAAAAAAAAAAA==' });
  assert.equal((ownSecret.webhooks?.signature as { sharedSecret?: string }).sharedSecret, 'AAAAAAAAAAAAAAAAAAAAAA==', 'the options\' secret, when given');

  const trading = profileOf('offer-slow-by-body-value').trading!;
  for (const legacy of ['fastProcessingMs', 'slowProcessingMs', 'expiryValiditySeconds'] as const) assert.equal(trading[legacy], undefined, legacy);
  const recipes = offerRecipes(trading)!;
  assert.equal(recipes.standard.name, 'fast');
  assert.deepEqual(recipes.standard.template.body, { amount: '10.00', currency: 'EUR' });
  assert.deepEqual(recipes.answering202.map((r) => [r.name, r.template.body]), [['slow', { amount: '9999.00', currency: 'EUR' }]]);
  assert.deepEqual(
    recipes.expiring.map((r) => [r.name, r.template.body, r.expiresAfterSeconds]),
    [
      ['expiring', { amount: '10.00', currency: 'EUR', validity_seconds: 1 }, 1],
      ['expiringSlow', { amount: '9999.00', currency: 'EUR', validity_seconds: 1 }, 1],
    ],
    'an expiring offer on each path, fast and slow',
  );
  assert.deepEqual(trading.createOffer?.body, { amount: '10.00', currency: 'EUR' }, 'a plain createOffer is a body the implementation takes');

  const renamed = profileOf('user-id-header-renamed');
  assert.equal(renamed.userIdHeader, 'x-partner-user-id');
  assert.equal(renamed.trading?.offerStatus?.headers?.['x-partner-user-id'], '{userId}');
  assert.doesNotMatch(JSON.stringify(renamed), /svc-user-id/i, 'no template sends the spec\'s name any more');
  assert.match(JSON.stringify(plain), /"svc-user-id"/, 'the reference profile does send it, so the renaming is visible');
  const edition = variantByName('user-id-header-renamed')!.adjustProfile!(plain, { ...REFERENCE_DEFAULTS, userIdHeader: 'x-edition-user' });
  assert.equal(edition.userIdHeader, 'x-edition-user');
  assert.equal(edition.trading?.offerStatus?.headers?.['x-edition-user'], '{userId}');
});
