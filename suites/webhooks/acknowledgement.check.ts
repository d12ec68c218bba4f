// The receiver obligation (spec 6.1): "answer with 200, 201, 202 or 204 to
// confirm receipt. The response has no body." One check per code: the
// receiver answers every attempt of the event with the code and watches the
// observation window for the event again. The event is its idempotency key
// (redelivery.ts): only a delivery carrying the acknowledged delivery's key is
// a redelivery; one under another key is another event, whatever its content.
//
// One redelivery after a written acknowledgement is a warning: an
// at-least-once sender may send an event once more, and the key is what lets
// a receiver de-duplicate it (5 rule 5). The same code written to that
// redelivery and the event coming yet again, twice in a row, is a sender that
// does not take the code as confirming receipt: a FAIL on 6.1.
//
// What was confirmed is what the sender got: only an answer written in full
// before the sender hung up is a confirmation. If the sender hung up first
// (its timeout was shorter than the receiver's answer took), nothing was
// confirmed and a redelivery is what 6.2 leaves open ("Retry and redelivery
// behaviour: not shown"), not a contradiction. What the check observed is
// judged by redelivery-judgments.ts.
import { defineCheck, type CheckContext } from '../../runner/index.ts';
import { idempotencyKey, type DeliveryAnswer, type ReceivedDelivery } from '../../src/webhooks/delivery.ts';
import { redeliveryByKey, sameContentOtherKey, secondWindowMs, secondWindowWaitMs } from './redelivery.ts';
import { acknowledgementEndsDelivery } from './redelivery-judgments.ts';
import { answeredAtMs, offset, VERIFICATION_SUCCEEDED, webhookWaitsMs, withWebhookSession, type WebhookSession } from './support.ts';

const ACKNOWLEDGEMENT_CODES = [200, 201, 202, 204] as const;

/** How long past the hub's report of a delivery its answer's fate may take to reach the check. */
const ANSWER_GRACE_MS = 5_000;

/** The check that judges whether a delivery carries X-BTS-Idempotency-Key: without one, a redelivery cannot be told from another event. */
const KEY_CHECK = 'webhooks.delivery-headers-present';

/** One attempt of the event, as the details show it. */
function attempt(delivery: ReceivedDelivery, first: ReceivedDelivery) {
  return { delivery: delivery.seq, at: offset(delivery, first), key: idempotencyKey(delivery) ?? null, answered: delivery.answer?.status ?? null, written: delivery.answer?.written ?? null };
}

/** The answer to a delivery once its fate is known: ERROR when it does not become known. */
async function fateOf(session: WebhookSession, check: CheckContext, delivery: ReceivedDelivery, code: number): Promise<DeliveryAnswer> {
  const answer = await session.answerOf(delivery, ANSWER_GRACE_MS);
  return answer ?? check.notObserved(`whether the ${code} answer to delivery #${delivery.seq} was written did not become known within ${ANSWER_GRACE_MS} ms`);
}

for (const code of ACKNOWLEDGEMENT_CODES) {
  defineCheck(
    {
      id: `webhooks.ack-${code}-ends-delivery`,
      title: `A ${code} answer confirms receipt: the event (its idempotency key) is not delivered again`,
      requirements: ['WEBHOOK-ACK-CODES'],
      // The first window, then a second one after a confirmed redelivery.
      waitsMs: (profile) => webhookWaitsMs({ deliveries: 1, windows: 1 })(profile) + secondWindowWaitMs(profile),
    },
    async (fixtures) => {
      const { check, profile } = fixtures;
      await withWebhookSession(fixtures, [{ status: code }], async (session) => {
        const { delivery: first } = await session.causeAndReceive(VERIFICATION_SUCCEEDED);
        const key = idempotencyKey(first);
        if (key === undefined) {
          return check.notObserved(`delivery #${first.seq} carries no X-BTS-Idempotency-Key, and only the key tells a redelivery of the event from another event: see ${KEY_CHECK}`);
        }
        const answer = await fateOf(session, check, first, code);
        const observed = {
          code,
          key,
          first: { seq: first.seq, written: answer.written, ...(answer.hungUpAfterMs !== undefined ? { hungUpAfterMs: answer.hungUpAfterMs } : {}), ...(answer.answeredAfterMs !== undefined ? { answeredAfterMs: answer.answeredAfterMs } : {}) },
          windowMs: session.settings.observationWindowMs,
          secondWindowMs: secondWindowMs(profile.webhooks ?? {}),
          sameContentOtherKey: [] as number[],
          attempts: [attempt(first, first)],
        };
        // Nothing confirmed: the check watches no further (judged: redelivery-judgments.ts).
        if (!answer.written) return check.judge(acknowledgementEndsDelivery, observed);
        const again = await redeliveryByKey(session, check, first, first, answeredAtMs(first), session.settings.observationWindowMs);
        if (!again) {
          const others = sameContentOtherKey(session, first).map((d) => d.seq);
          return check.judge(acknowledgementEndsDelivery, { ...observed, sameContentOtherKey: others, answeredAfterArrivalMs: Math.round(answeredAtMs(first) - first.receivedAtMs) });
        }
        // The receiver answers the redelivery with the same code (a script's last step repeats).
        const againAnswer = await fateOf(session, check, again, code);
        const third = againAnswer.written ? await redeliveryByKey(session, check, first, again, answeredAtMs(again), observed.secondWindowMs) : undefined;
        check.judge(acknowledgementEndsDelivery, {
          ...observed,
          again: { seq: again.seq, at: offset(again, first), written: againAnswer.written },
          ...(third ? { third: { seq: third.seq, at: offset(third, first) } } : {}),
          attempts: [first, again, ...(third ? [third] : [])].map((d) => attempt(d, first)),
        });
      });
    },
  );
}
