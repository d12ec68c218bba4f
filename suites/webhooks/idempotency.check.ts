// X-BTS-Idempotency-Key lets a receiver de-duplicate (spec 5 rule 5): every
// attempt of one event carries the same key, and distinct events carry
// distinct keys.
import { defineCheck } from '../../runner/index.ts';
import { idempotencyKey, type ReceivedDelivery } from '../../src/webhooks/delivery.ts';
import { ACKNOWLEDGE, offset, VERIFICATION_FAILED, VERIFICATION_SUCCEEDED, webhookWaitsMs, withWebhookSession } from './support.ts';

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
      if (!again) {
        check.review(`no redelivery within ${session.settings.observationWindowMs} ms after answering 500, so key stability could not be observed (retry behaviour is not shown by the spec)`);
        return;
      }
      const key = idempotencyKey(first);
      if (idempotencyKey(again) !== key) {
        return check.fail(`redelivery #${again.seq} at ${offset(again, first)} carried X-BTS-Idempotency-Key ${idempotencyKey(again) ?? '(none)'}, the first attempt ${key ?? '(none)'}`, {
          attempts: [first, again].map((d) => ({ delivery: d.seq, at: offset(d, first), key: idempotencyKey(d) ?? null })),
        });
      }
      check.note(`redelivery #${again.seq} at ${offset(again, first)} kept key ${key}`);
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
      const [a, b] = [idempotencyKey(first), idempotencyKey(second)];
      // A missing key is the headers check's finding: without one there is nothing to compare (README "Verdicts").
      if (!a || !b) return check.notObserved(`delivery #${(a ? second : first).seq} carries no X-BTS-Idempotency-Key, so whether distinct events carry distinct keys cannot be judged: see webhooks.delivery-headers-present`);
      check.assert(a !== b, `two distinct events (verification success true, then false) both carried X-BTS-Idempotency-Key ${a}`, {
        first: { delivery: first.seq, key: a },
        second: { delivery: second.seq, key: b },
      });
    });
  },
);
