// The "webhooks" section of the reference's own implementation profile: its
// non-spec register and trigger operations, and what it declares about its
// deliveries where the spec says "not shown" (5, 6.2): the RFC 9421
// signature key set and the components it signs, its digest algorithms, its
// clock skew and its retry schedule. The retry schedule also sizes the
// observation windows, so the webhook checks stay fast.
import type { WebhooksProfile } from '../../src/config/sections/webhooks.ts';
import { seedUsers } from '../fixtures/users.ts';
import type { ReferenceOptions } from '../options.ts';
import { WEBHOOK_JWKS_PATH, WEBHOOK_REGISTER_PATH, WEBHOOK_TRIGGER_PATH } from '../routes/webhooks.ts';
import { retryDelaysMs } from '../webhooks/schedule.ts';
import { RISK_EVALUATION_ACTION } from '../webhooks/events.ts';

/**
 * How many of the seed users the webhook checks may cause events for: one per
 * webhook check (17), so under slow deliveries (the slow-webhooks condition:
 * 6 s to the first one) every check waits at once instead of in turns.
 */
const WEBHOOK_USERS = 17;

export function webhooksSection(_baseUrl: string, options: ReferenceOptions): WebhooksProfile {
  const retries = retryDelaysMs(options);
  const users = seedUsers(options.seed);
  return {
    register: { method: 'PUT', path: WEBHOOK_REGISTER_PATH, body: { url: '{receiverUrl}' }, expectStatus: [200] },
    trigger: {
      method: 'POST',
      path: WEBHOOK_TRIGGER_PATH,
      body: { action: '{action}', success: '{success}', status: '{status}' },
      expectStatus: [202],
    },
    userId: users[0]!.id,
    // Each webhook check holds a user; with one each, the checks of a run wait side by side.
    additionalUsers: users.slice(1, WEBHOOK_USERS).map((user) => ({ userId: user.id })),
    riskEvaluationAction: RISK_EVALUATION_ACTION,
    signature: {
      scheme: 'rfc9421',
      jwksUrl: WEBHOOK_JWKS_PATH,
      // What reference/webhooks/message.ts covers; a signature covering more still passes.
      requiredComponents: ['@method', '@target-uri', 'content-type', 'content-digest', 'date', 'x-bts-idempotency-key'],
    },
    digestAlgorithms: ['sha-256', 'sha-512'],
    dateSkewSeconds: 60,
    deliveryTimeoutMs: 5_000,
    // Sizes the observation windows (src/config/sections/webhooks.ts); none when the reference does not retry.
    ...(retries.length ? { retryDelaysMs: retries } : {}),
    // Longer than the reference's delivery timeout, so holding the answer makes it time out.
    slowResponseMs: options.webhookTimeoutMs + 500,
    // A new receiving address is used at once.
    addressPropagationMs: 0,
  };
}
