// The receiver obligation (spec 6.1): "answer with 200, 201, 202 or 204 to
// confirm receipt. The response has no body." One check per code: the
// receiver answers the event's first attempt with the code and watches the
// observation window for the same event again (same key or same content).
//
// What was confirmed is what the sender got: only an answer written in full
// before the sender hung up is a confirmation. If the sender hung up first
// (its timeout was shorter than the receiver's answer took), nothing was
// confirmed and a redelivery is what 6.2 leaves open ("Retry and redelivery
// behaviour: not shown"), not a contradiction.
import { defineCheck } from '../../runner/index.ts';
import { idempotencyKey } from '../../src/webhooks/delivery.ts';
import { answeredAtMs, offset, VERIFICATION_SUCCEEDED, webhookWaitsMs, withWebhookSession } from './support.ts';

const ACKNOWLEDGEMENT_CODES = [200, 201, 202, 204] as const;

/** How long past the hub's report of a delivery its answer's fate may take to reach the check. */
const ANSWER_GRACE_MS = 5_000;

for (const code of ACKNOWLEDGEMENT_CODES) {
  defineCheck(
    {
      id: `webhooks.ack-${code}-ends-delivery`,
      title: `A ${code} answer confirms receipt: the event is not delivered again`,
      requirements: ['WEBHOOK-ACK-CODES'],
      waitsMs: webhookWaitsMs({ deliveries: 1, windows: 1 }),
    },
    async (fixtures) => {
      const { check } = fixtures;
      await withWebhookSession(fixtures, [{ status: code }], async (session) => {
        const { delivery: first } = await session.causeAndReceive(VERIFICATION_SUCCEEDED);
        const answer = await session.answerOf(first, ANSWER_GRACE_MS);
        if (!answer) return check.notObserved(`whether the ${code} answer to delivery #${first.seq} was written did not become known within ${ANSWER_GRACE_MS} ms`);
        if (!answer.written) {
          check.review(`the sender hung up ${answer.hungUpAfterMs ?? '?'} ms after delivery #${first.seq} arrived, before the receiver's ${code} was written: nothing was confirmed, so whether the event comes again is retry behaviour, which 6.2 does not show`);
          return;
        }
        const again = await session.redeliveryOf(first);
        if (again) {
          return check.fail(
            `the event was delivered again (#${again.seq}, ${offset(again, first)}) after the receiver's ${code} to delivery #${first.seq} was written in full (${answer.answeredAfterMs ?? 0} ms after it arrived)`,
            { acknowledgement: code, answeredAfterMs: answer.answeredAfterMs ?? null, first: { delivery: first.seq, key: idempotencyKey(first) ?? null }, redelivery: { delivery: again.seq, at: offset(again, first), key: idempotencyKey(again) ?? null } },
            { on: 'SPEC-6-1-ACK' },
          );
        }
        check.note(`no redelivery within ${session.settings.observationWindowMs} ms after the ${code} was written (${Math.round(answeredAtMs(first) - first.receivedAtMs)} ms after delivery #${first.seq} arrived)`);
      });
    },
  );
}
