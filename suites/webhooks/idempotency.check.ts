// X-BTS-Idempotency-Key lets a receiver de-duplicate (spec 5 rule 5): every
// attempt of one event carries the same key, and distinct events carry
// distinct keys (judged by event-judgments.ts).
import { defineCheck } from '../../runner/index.ts';
import { idempotencyKey, type ReceivedDelivery } from '../../src/webhooks/delivery.ts';
import { ACKNOWLEDGE, offset, VERIFICATION_FAILED, VERIFICATION_SUCCEEDED, webhookWaitsMs, withWebhookSession } from './support.ts';
import { distinctEventsDistinctKeys, redeliveryKeepsKey } from './event-judgments.ts';

defineCheck(
  {
    id: 'webhooks.redelivery-keeps-key',
    title: 'A redelivery after a 500 carries the same idempotency key',
    requirements: ['WEBHOOK-IDEMPOTENCY-STABLE'],
    waitsMs: webhookWaitsMs({ deliveries: 1, windows: 1 }),
  },
  async (fixtures) => {
    const { check } = fixtures;
    // 500 to the first attempt invites a redelivery; 204 to the next ends it.
    await withWebhookSession(fixtures, [{ status: 500 }, { status: 204 }], async (session) => {
      const { delivery: first } = await session.causeAndReceive(VERIFICATION_SUCCEEDED);
      const again = await session.redeliveryOf(first);
      const keyed = (d: ReceivedDelivery) => ({ seq: d.seq, at: offset(d, first), key: idempotencyKey(d) ?? null });
      check.judge(redeliveryKeepsKey, { first: keyed(first), ...(again ? { again: keyed(again) } : {}), observationWindowMs: session.settings.observationWindowMs });
    });
  },
);

defineCheck(
  {
    id: 'webhooks.distinct-events-distinct-keys',
    title: 'Two distinct events carry distinct idempotency keys',
    requirements: ['WEBHOOK-IDEMPOTENCY-DISTINCT'],
    waitsMs: webhookWaitsMs({ deliveries: 1 }),
  },
  async (fixtures) => {
    const { check } = fixtures;
    await withWebhookSession(fixtures, ACKNOWLEDGE, async (session) => {
      // Caused back to back and collected side by side: the second is the verification that failed, whatever its key.
      const causes = [await session.mustCause(VERIFICATION_SUCCEEDED), await session.mustCause(VERIFICATION_FAILED)];
      const [first, second] = (await session.deliveriesOf(causes)) as [ReceivedDelivery, ReceivedDelivery];
      const keyed = (d: ReceivedDelivery) => ({ seq: d.seq, key: idempotencyKey(d) ?? null });
      check.judge(distinctEventsDistinctKeys, { first: keyed(first), second: keyed(second) });
    });
  },
);
