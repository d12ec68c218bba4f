// The webhook checks read their settings from the profile: a missing entry
// is a SKIP that names the key to set, never a guess.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CheckContext, CheckSkip } from '../../src/check/index.ts';
import { Redactor } from '../../src/http/redact.ts';
import type { ResolvedProfile } from '../../src/config/profile.ts';
import { referenceProfile } from '../../reference/profile.ts';
import { webhookSettings } from '../../suites/webhooks/support.ts';

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
  assert.deepEqual(settings.digestAlgorithms, ['sha-256', 'sha-512']);
  assert.equal(settings.dateSkewSeconds, 300);
  assert.equal(settings.slowResponseMs, undefined);
});

test("the reference's section sizes its windows to its retry schedule and timeout", () => {
  const { webhooks } = referenceProfile('http://127.0.0.1:1', { webhookRetryBaseMs: 500, webhookTimeoutMs: 2_000 });
  assert.equal(webhooks?.observationWindowMs, 1_800);
  assert.equal(webhooks?.slowResponseMs, 2_500);
  assert.equal(webhooks?.riskEvaluationAction, 'risk_evaluation');
});
