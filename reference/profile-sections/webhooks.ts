// The "webhooks" section of the reference's own implementation profile: its
// non-spec register and trigger operations, its RFC 9421 signature key set,
// and windows sized to its retry schedule so the webhook checks stay fast.
import type { WebhooksProfile } from '../../src/config/sections/webhooks.ts';
import { seedUsers } from '../fixtures/users.ts';
import type { ReferenceOptions } from '../options.ts';
import { WEBHOOK_JWKS_PATH, WEBHOOK_REGISTER_PATH, WEBHOOK_TRIGGER_PATH } from '../routes/webhooks.ts';
import { RISK_EVALUATION_ACTION } from '../webhooks/events.ts';

export function webhooksSection(_baseUrl: string, options: ReferenceOptions): WebhooksProfile {
  return {
    register: { method: 'PUT', path: WEBHOOK_REGISTER_PATH, body: { url: '{receiverUrl}' }, expectStatus: [200] },
    trigger: {
      method: 'POST',
      path: WEBHOOK_TRIGGER_PATH,
      body: { action: '{action}', success: '{success}', status: '{status}' },
      expectStatus: [202],
    },
    userId: seedUsers(options.seed)[0]!.id,
    riskEvaluationAction: RISK_EVALUATION_ACTION,
    signature: { scheme: 'rfc9421', jwksUrl: WEBHOOK_JWKS_PATH },
    digestAlgorithms: ['sha-256', 'sha-512'],
    dateSkewSeconds: 60,
    deliveryTimeoutMs: 5_000,
    // Long enough to see the first two retries after a failed attempt.
    observationWindowMs: Math.max(1_000, 3 * options.webhookRetryBaseMs + 300),
    // Longer than the reference's delivery timeout, so holding the answer makes it time out.
    slowResponseMs: options.webhookTimeoutMs + 500,
  };
}
