// What one user-update delivery must look like (spec 5 rule 5, 6.1): POST
// with application/json, the four headers, a Content-Digest that matches,
// a Date within the skew and a signature that verifies (the params shape is
// judged on every verification delivery: verification-body.check.ts).
// Each check causes one verification event, acknowledges it with 204, and
// judges the delivery that carries that event (support.ts), not whatever
// arrives first. How the digest and signature are computed and the skew are
// not shown: judgements.ts applies the profile's declarations, through the
// named judgments of delivery-judgments.ts (the record keeps the delivery's
// observation, judged again offline).
import { defineCheck } from '../../runner/index.ts';
import type { CheckFixtures } from '../../runner/index.ts';
import { fieldValue } from '../../src/webhooks/delivery.ts';
import type { ReceivedDelivery } from '../../src/webhooks/delivery.ts';
import { observeDelivery } from './judgements.ts';
import { contentDigestMatches, dateWithinSkew, headerDeclarations, headersPresent, postJson, signatureVerifies } from './delivery-judgments.ts';
import { ACKNOWLEDGE, loadSignatureStrategy, VERIFICATION_SUCCEEDED, webhookWaitsMs, withWebhookSession, type WebhookSession } from './support.ts';

/** The start most format checks share: cause one verification event, acknowledge it, take its delivery. */
function withAcknowledgedVerification(
  fixtures: CheckFixtures,
  body: (delivery: ReceivedDelivery, session: WebhookSession) => Promise<void>,
): Promise<void> {
  return withWebhookSession(fixtures, ACKNOWLEDGE, async (session) => {
    const { delivery } = await session.causeAndReceive(VERIFICATION_SUCCEEDED);
    await body(delivery, session);
  });
}

defineCheck(
  {
    id: 'webhooks.delivery-post-json',
    title: 'A user-update delivery is a POST with Content-Type application/json',
    requirements: ['WEBHOOK-POST-JSON'],
    waitsMs: webhookWaitsMs({ deliveries: 1 }),
  },
  async (fixtures) => {
    const { check } = fixtures;
    await withAcknowledgedVerification(fixtures, async (delivery) => {
      const contentType = fieldValue(delivery, 'content-type');
      check.judge(postJson, { seq: delivery.seq, method: delivery.method, ...(contentType !== undefined ? { contentType } : {}) });
    });
  },
);

defineCheck(
  {
    id: 'webhooks.delivery-headers-present',
    title: 'A delivery carries X-BTS-Idempotency-Key, Signature, Content-Digest and Date',
    requirements: ['WEBHOOK-HEADERS-PRESENT'],
    waitsMs: webhookWaitsMs({ deliveries: 1 }),
  },
  async (fixtures) => {
    await withAcknowledgedVerification(fixtures, async (delivery) => fixtures.check.judge(headersPresent, { delivery: await observeDelivery(delivery) }));
  },
);

defineCheck(
  {
    id: 'webhooks.content-digest-matches',
    title: 'Content-Digest matches the delivered body (RFC 9530, under the declared algorithms)',
    requirements: ['WEBHOOK-CONTENT-DIGEST'],
    waitsMs: webhookWaitsMs({ deliveries: 1 }),
  },
  async (fixtures) => {
    await withAcknowledgedVerification(fixtures, async (delivery, session) =>
      fixtures.check.judge(contentDigestMatches, { delivery: await observeDelivery(delivery), declared: headerDeclarations(session.settings) }),
    );
  },
);

defineCheck(
  {
    id: 'webhooks.date-within-skew',
    title: 'Date is an HTTP date within the declared clock skew',
    requirements: ['WEBHOOK-DATE'],
    waitsMs: webhookWaitsMs({ deliveries: 1 }),
  },
  async (fixtures) => {
    await withAcknowledgedVerification(fixtures, async (delivery, session) =>
      fixtures.check.judge(dateWithinSkew, { delivery: await observeDelivery(delivery), declared: headerDeclarations(session.settings) }),
    );
  },
);

defineCheck(
  {
    id: 'webhooks.signature-verifies',
    title: 'The delivery signature verifies under the declared scheme and key',
    requirements: ['WEBHOOK-SIGNATURE'],
    waitsMs: webhookWaitsMs({ deliveries: 1 }),
  },
  async (fixtures) => {
    await withWebhookSession(fixtures, ACKNOWLEDGE, async (session) => {
      const strategy = await loadSignatureStrategy(fixtures, session.settings);
      const { delivery } = await session.causeAndReceive(VERIFICATION_SUCCEEDED);
      fixtures.check.judge(signatureVerifies, { delivery: await observeDelivery(delivery, strategy), declared: headerDeclarations(session.settings) });
    });
  },
);
