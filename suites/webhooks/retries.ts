// What happens after a delivery is not acknowledged (spec 6.2: "Retry and
// redelivery behaviour: not shown"). The checks record the attempts and
// their timing for review. No redelivery within the observation window is a
// warning (an unacknowledged event would be lost), unless the profile
// declares a retry schedule (webhooks.retryDelaysMs): then the window is
// sized to it, and a missing redelivery contradicts the declaration.
import { defineCheck } from '../../src/check/index.ts';
import type { CheckContext } from '../../src/check/index.ts';
import { idempotencyKey, isAttemptOf, type ReceivedDelivery } from '../../src/webhooks/delivery.ts';
import { offset, VERIFICATION_SUCCEEDED, webhookSettings, withWebhookSession, type WebhookSession } from './support.ts';

function reportAttempts(check: CheckContext, session: WebhookSession, first: ReceivedDelivery, provocation: string, watchedMs: number): void {
  const attempts = [first, ...session.deliveries.filter((d) => d !== first && isAttemptOf(d, first))];
  const timeline = attempts.map((d) => ({ delivery: d.seq, at: offset(d, first), key: idempotencyKey(d) ?? null, answered: d.answer?.status ?? null }));
  const declared = session.settings.retryDelaysMs;
  if (attempts.length === 1) {
    if (declared) {
      return check.failDeclared('webhooks.retryDelaysMs', `no redelivery within ${watchedMs} ms after ${provocation}, though the profile declares retries after ${declared.join(', ')} ms`, {
        timeline,
        retryDelaysMs: declared,
      });
    }
    check.warn(
      `no redelivery within ${watchedMs} ms after ${provocation}: the event may be lost (retry behaviour is not shown by the spec; declare webhooks.retryDelaysMs, or widen webhooks.observationWindowMs if the first retry comes later)`,
      { timeline },
    );
    return;
  }
  const keys = new Set(timeline.map((t) => t.key));
  const schedule = declared ? `; the profile declares retries after ${declared.join(', ')} ms` : '';
  check.review(
    `after ${provocation} the event was delivered ${attempts.length} times within ${watchedMs} ms: ${timeline.map((t) => t.at).join(', ')}${keys.size === 1 ? ', same key' : `, ${keys.size} different keys`}${schedule}`,
    { timeline, retryDelaysMs: declared ?? null },
  );
}

/** How long past the hold the answer's fate may take to reach the check (the hub's stream). */
const ANSWER_GRACE_MS = 1_000;

export function declareRetryChecks(): void {
  defineCheck(
    {
      id: 'webhooks.retry-after-500',
      title: 'After a 500 the redeliveries are recorded for review',
      requirements: ['WEBHOOK-RETRY-POLICY'],
    },
    async (fixtures) => {
      await withWebhookSession(fixtures, [{ status: 500 }], async (session) => {
        const { delivery: first } = await session.causeAndReceive(VERIFICATION_SUCCEEDED);
        await session.watchAfter(first);
        reportAttempts(fixtures.check, session, first, 'answering 500 to every attempt', session.settings.observationWindowMs);
      });
    },
  );

  defineCheck(
    {
      id: 'webhooks.retry-after-timeout',
      title: 'After an answer that never comes in time the redeliveries are recorded for review',
      requirements: ['WEBHOOK-RETRY-POLICY'],
    },
    async (fixtures) => {
      const { check, profile } = fixtures;
      const slowMs = webhookSettings(profile, check).slowResponseMs;
      if (!slowMs) return check.skip('no answer delay that exceeds the delivery timeout is configured', 'webhooks.slowResponseMs');
      await withWebhookSession(fixtures, [{ status: 204, delayMs: slowMs }], async (session) => {
        const { delivery: first } = await session.causeAndReceive(VERIFICATION_SUCCEEDED);
        const answer = await session.answerOf(first, slowMs + ANSWER_GRACE_MS);
        if (answer?.written) {
          check.review(`the implementation waited ${slowMs} ms for the answer and got it, so no timeout was provoked: raise webhooks.slowResponseMs above its delivery timeout`);
          return;
        }
        // A retry schedule counts from the attempt the sender gave up on: the window opens at its hang-up.
        const gaveUpAfterMs = answer?.hungUpAfterMs ?? slowMs;
        await session.watchAfter(first, gaveUpAfterMs);
        reportAttempts(check, session, first, `holding every answer for ${slowMs} ms (the sender hung up after ${gaveUpAfterMs} ms)`, gaveUpAfterMs + session.settings.observationWindowMs);
      });
    },
  );
}
