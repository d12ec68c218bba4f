// What happens after a delivery is not acknowledged (spec 6.2: "Retry and
// redelivery behaviour: not shown"). The checks record the redelivery and
// its timing for review. No redelivery within the observation window is a
// warning (an unacknowledged event would be lost), unless the profile
// declares a retry schedule (webhooks.retryDelaysMs): then the window is
// sized to its first retry, and a missing redelivery contradicts the
// declaration — once a second window has passed as well: a redelivery that
// comes only then is late on a loaded machine as likely as on the sender's
// side, so it is recorded for review, never a FAIL. One redelivery shows the
// schedule: the receiver acknowledges it, so the event stops coming and the
// check ends there. What was observed is judged by redelivery-judgments.ts.
import { defineCheck } from '../../runner/index.ts';
import type { CheckContext } from '../../runner/index.ts';
import { idempotencyKey, type ReceivedDelivery } from '../../src/webhooks/delivery.ts';
import { answeredAtMs, offset, VERIFICATION_SUCCEEDED, webhookSettings, webhookWaitsMs, withWebhookSession, type WebhookSession } from './support.ts';
import { redeliveryRecorded } from './redelivery-judgments.ts';

/** The redelivery of `first` after `afterMs`: within the window, or, when a schedule is declared, within a second one (then marked late). */
async function awaitRedelivery(session: WebhookSession, first: ReceivedDelivery, afterMs: number): Promise<{ again?: ReceivedDelivery; late: boolean }> {
  const again = await session.redeliveryOf(first, afterMs);
  if (again || !session.settings.retryDelaysMs) return { again, late: false };
  return { again: await session.redeliveryOf(first, afterMs, 2), late: true };
}

function reportRedelivery(check: CheckContext, session: WebhookSession, first: ReceivedDelivery, found: { again?: ReceivedDelivery; late: boolean }, provocation: string): void {
  const { again } = found;
  const declared = session.settings.retryDelaysMs;
  const attempt = (d: ReceivedDelivery) => ({ delivery: d.seq, at: offset(d, first), key: idempotencyKey(d) ?? null, answered: d.answer?.status ?? null });
  check.judge(redeliveryRecorded, {
    provocation,
    observationWindowMs: session.settings.observationWindowMs,
    late: found.late,
    ...(declared ? { retryDelaysMs: declared } : {}),
    timeline: [first, ...(again ? [again] : [])].map(attempt),
    ...(again ? { again: { seq: again.seq, at: offset(again, first), sameKey: idempotencyKey(again) === idempotencyKey(first) } } : {}),
  });
}

/** How long past the hold the answer's fate may take to reach the check (the hub's stream). */
const ANSWER_GRACE_MS = 1_000;

defineCheck(
  {
    id: 'webhooks.retry-after-timeout',
    title: 'After an answer that never comes in time the redeliveries are recorded for review',
    requirements: ['WEBHOOK-RETRY-POLICY'],
    waitsMs: webhookWaitsMs({ deliveries: 1, windows: 2, slowResponse: true }),
  },
  async (fixtures) => {
    const { check, profile } = fixtures;
    const slowMs = webhookSettings(profile, check).slowResponseMs;
    if (!slowMs) return check.skip('no answer delay that exceeds the delivery timeout is configured', 'webhooks.slowResponseMs');
    // The first attempt's answer is held past the sender's timeout; a redelivery is acknowledged at once.
    await withWebhookSession(fixtures, [{ status: 204, delayMs: slowMs }, { status: 204 }], async (session) => {
      const { delivery: first } = await session.causeAndReceive(VERIFICATION_SUCCEEDED);
      const answer = await session.answerOf(first, slowMs + ANSWER_GRACE_MS);
      if (answer?.written) {
        check.review(`the implementation waited ${slowMs} ms for the answer and got it, so no timeout was provoked: raise webhooks.slowResponseMs above its delivery timeout`);
        return;
      }
      // A retry schedule counts from the attempt the sender gave up on: the window opens at its hang-up.
      const gaveUpAfterMs = answer?.hungUpAfterMs ?? slowMs;
      const found = await awaitRedelivery(session, first, first.receivedAtMs + gaveUpAfterMs);
      reportRedelivery(check, session, first, found, `holding the answer for ${slowMs} ms (the sender hung up after ${gaveUpAfterMs} ms)`);
    });
  },
);

defineCheck(
  {
    id: 'webhooks.retry-after-500',
    title: 'After a 500 the redeliveries are recorded for review',
    requirements: ['WEBHOOK-RETRY-POLICY'],
    waitsMs: webhookWaitsMs({ deliveries: 1, windows: 2 }),
  },
  async (fixtures) => {
    await withWebhookSession(fixtures, [{ status: 500 }, { status: 204 }], async (session) => {
      const { delivery: first } = await session.causeAndReceive(VERIFICATION_SUCCEEDED);
      const found = await awaitRedelivery(session, first, answeredAtMs(first));
      reportRedelivery(fixtures.check, session, first, found, 'answering 500');
    });
  },
);
