// X-BTS-Idempotency-Key lets a receiver de-duplicate (spec 5 rule 5): every
// attempt of one event carries the same key, and distinct events carry
// distinct keys.
import { defineCheck } from '../../src/check/index.ts';
import { idempotencyKey, isAttemptOf } from '../../src/webhooks/delivery.ts';
import { ACKNOWLEDGE, offset, VERIFICATION_FAILED, VERIFICATION_SUCCEEDED, withWebhookSession } from './support.ts';

export function declareIdempotencyChecks(): void {
  defineCheck(
    {
      id: 'webhooks.distinct-events-distinct-keys',
      title: 'Two distinct events carry distinct idempotency keys',
      requirements: ['WEBHOOK-IDEMPOTENCY-DISTINCT'],
    },
    async (fixtures) => {
      const { check } = fixtures;
      await withWebhookSession(fixtures, ACKNOWLEDGE, async (session) => {
        const { delivery: first } = await session.causeAndReceive(VERIFICATION_SUCCEEDED);
        // The second event is the next verification for the user that is no attempt of the first; its key may be anything.
        const { delivery: second } = await session.causeAndReceive(VERIFICATION_FAILED);
        const [a, b] = [idempotencyKey(first), idempotencyKey(second)];
        if (!a || !b) return check.fail(`delivery #${(a ? second : first).seq} carries no X-BTS-Idempotency-Key to tell the events apart`);
        check.assert(a !== b, `two distinct events (verification success true, then false) both carried X-BTS-Idempotency-Key ${a}`, {
          first: { delivery: first.seq, key: a },
          second: { delivery: second.seq, key: b },
        });
      });
    },
  );

  defineCheck(
    {
      id: 'webhooks.redelivery-keeps-key',
      title: 'A redelivery after a 500 carries the same idempotency key',
      requirements: ['WEBHOOK-IDEMPOTENCY-STABLE'],
    },
    async (fixtures) => {
      const { check } = fixtures;
      // 500 to the first attempt invites a redelivery; 204 to the next ends it.
      await withWebhookSession(fixtures, [{ status: 500 }, { status: 204 }], async (session) => {
        const { delivery: first } = await session.causeAndReceive(VERIFICATION_SUCCEEDED);
        await session.watchAfter(first);
        const attempts = session.deliveries.filter((d) => d !== first && isAttemptOf(d, first));
        if (attempts.length === 0) {
          check.review(`no redelivery within ${session.settings.observationWindowMs} ms after answering 500, so key stability could not be observed (retry behaviour is not shown by the spec)`);
          return;
        }
        const key = idempotencyKey(first);
        const changed = attempts.find((d) => idempotencyKey(d) !== key);
        if (changed) {
          return check.fail(`redelivery #${changed.seq} at ${offset(changed, first)} carried X-BTS-Idempotency-Key ${idempotencyKey(changed) ?? '(none)'}, the first attempt ${key ?? '(none)'}`, {
            attempts: [first, ...attempts].map((d) => ({ delivery: d.seq, at: offset(d, first), key: idempotencyKey(d) ?? null })),
          });
        }
        check.note(`${attempts.length} redelivery(ies) kept key ${key}`);
      });
    },
  );
}
