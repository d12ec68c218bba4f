// The webhook checks read their settings from the profile: a missing entry
// is a SKIP that names the key to set, never a guess.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CheckContext, CheckSkip } from '../../runner/index.ts';
import { Redactor } from '../../src/http/redact.ts';
import type { ResolvedProfile } from '../../src/config/profile.ts';
import { referenceProfile } from '../../reference/profile.ts';
import { webhookSettings, webhookWaitsMs } from '../../suites/webhooks/support.ts';

const base: ResolvedProfile = { baseUrl: 'http://127.0.0.1:1', credentials: { clientId: 'c', clientSecret: 'secret-value' } };
const trigger = { method: 'POST', path: '/events/{userId}' } as const;
const register = { method: 'PUT', path: '/hooks' } as const;

function skippedKey(profile: ResolvedProfile): string | undefined {
  try {
    webhookSettings(profile, new CheckContext(new Redactor()));
    return undefined;
  } catch (error) {
    assert.ok(error instanceof CheckSkip, String(error));
    return error.configKey;
  }
}

test('each missing entry skips naming its key', () => {
  assert.equal(skippedKey(base), 'webhooks.trigger');
  assert.equal(skippedKey({ ...base, webhooks: { trigger } }), 'webhooks.register');
  assert.equal(skippedKey({ ...base, webhooks: { trigger, register } }), 'webhooks.userId');
  assert.equal(skippedKey({ ...base, webhooks: { trigger, receiver: { registeredOutOfBand: true } } }), 'webhooks.receiver.publicUrl');
  assert.equal(skippedKey({ ...base, webhooks: { trigger, register }, users: { existingUserId: 'u' } }), undefined, 'the users fixture stands in for webhooks.userId');
});

test('defaults fill what the profile leaves out; an out-of-band address needs no register operation', () => {
  const settings = webhookSettings({ ...base, webhooks: { trigger, userId: 'u', receiver: { registeredOutOfBand: true, publicUrl: 'https://hooks.example/in' } } }, new CheckContext(new Redactor()));
  assert.equal(settings.register, undefined);
  assert.deepEqual(settings.receiver, { listenHost: '127.0.0.1', listenPort: 0, path: '/ptas/webhooks/user-update', publicUrl: 'https://hooks.example/in' });
  // Nothing declared: any RFC 9530 digest, a generous skew that only warns, no retry schedule.
  assert.equal(settings.digestAlgorithms, undefined);
  assert.equal(settings.dateSkewSeconds, 300);
  assert.equal(settings.dateSkewDeclared, false);
  assert.equal(settings.retryDelaysMs, undefined);
  assert.equal(settings.observationWindowMs, 5_000);
  assert.equal(settings.slowResponseMs, undefined);
  // No latency declared: a generous wait, and lateness is "not observed", never a FAIL.
  assert.equal(settings.deliveryTimeoutMs, 30_000);
  assert.equal(settings.deliveryTimeoutDeclaredBy, undefined);
});

test('the first declared retry delay sizes the observation window; an explicit longer window still counts; a declared delivery timeout makes lateness a finding', () => {
  const ctx = () => new CheckContext(new Redactor());
  const webhooks = { trigger, register, userId: 'u' };
  // A quarter more than the first retry, plus a second: one redelivery is all a check asks for.
  assert.equal(webhookSettings({ ...base, webhooks: { ...webhooks, retryDelaysMs: [200, 400, 800] } }, ctx()).observationWindowMs, 1_250);
  assert.equal(webhookSettings({ ...base, webhooks: { ...webhooks, retryDelaysMs: [200, 400, 800], observationWindowMs: 3_000 } }, ctx()).observationWindowMs, 3_000);
  assert.equal(webhookSettings({ ...base, webhooks: { ...webhooks, retryDelaysMs: [5_000, 15_000] } }, ctx()).observationWindowMs, 7_250);
  const declared = webhookSettings({ ...base, webhooks: { ...webhooks, deliveryTimeoutMs: 20_000 } }, ctx());
  assert.deepEqual([declared.deliveryTimeoutMs, declared.deliveryTimeoutDeclaredBy], [20_000, 'webhooks.deliveryTimeoutMs']);
  assert.equal(webhookSettings({ ...base, webhooks: { ...webhooks, dateSkewSeconds: 30 } }, ctx()).dateSkewDeclared, true);
  assert.deepEqual(webhookSettings({ ...base, webhooks: { ...webhooks, userPid: 'pid-1' } }, ctx()).users, [['u', 'pid-1']]);
  const more = { ...webhooks, additionalUsers: [{ userId: 'v' }, { userId: 'w', userPid: 'pid-w' }] };
  assert.deepEqual(webhookSettings({ ...base, webhooks: more }, ctx()).users, [['u'], ['v'], ['w', 'pid-w']], 'userId first, then the additional users');
});

test("the reference's section declares its retry schedule, signed components and timeout", () => {
  const { webhooks } = referenceProfile('http://127.0.0.1:1', { webhookRetryBaseMs: 500, webhookTimeoutMs: 2_000 });
  assert.deepEqual(webhooks?.retryDelaysMs, [500, 1_000, 2_000]);
  assert.equal(webhooks?.observationWindowMs, undefined, 'derived from the schedule, not written');
  assert.equal(webhooks?.slowResponseMs, 2_500);
  assert.equal(webhooks?.riskEvaluationAction, 'risk_evaluation');
  assert.deepEqual(webhooks?.signature?.scheme === 'rfc9421' && webhooks.signature.requiredComponents, ['@method', '@target-uri', 'content-type', 'content-digest', 'date', 'x-bts-idempotency-key']);
});

test('the webhook-retry-slower variant leaves the schedule undeclared and keeps a short window', () => {
  const { webhooks } = referenceProfile('http://127.0.0.1:1', { variants: ['webhook-retry-slower'] });
  assert.equal(webhooks?.retryDelaysMs, undefined);
  assert.equal(webhooks?.observationWindowMs, 1_125);
});

test("a check's time limit grows by the waits the profile declares, or by the generous defaults", () => {
  const webhooks = { trigger, register, userId: 'u' };
  const slow: ResolvedProfile = { ...base, webhooks: { ...webhooks, deliveryTimeoutMs: 20_000, retryDelaysMs: [5_000, 15_000], slowResponseMs: 8_500 } };
  // One delivery, one window (7 250 ms), a held answer, and 5 s for the calls around them.
  assert.equal(webhookWaitsMs({ deliveries: 1, windows: 1, slowResponse: true })(slow), 20_000 + 7_250 + 8_500 + 5_000);
  assert.equal(webhookWaitsMs({ deliveries: 1 })({ ...base, webhooks }), 30_000 + 5_000, 'undeclared: the generous delivery wait');
});
