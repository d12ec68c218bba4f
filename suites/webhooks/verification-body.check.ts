// 6.1's verification params on every verification delivery the check
// receives, not only on the first delivery of a successful verification
// (issue 29: a failed verification delivered without success went
// unnoticed, and redelivered bodies were never judged). The check causes a
// successful and a failed verification back to back, refuses the first
// attempt of each with 500 so that a redelivery comes, acknowledges the
// redelivery, and judges the first delivery and every redelivery of both
// events (verification-params.ts); each finding names the delivery it is
// about. Whether a redelivery comes is not shown (6.2): when none comes
// within the observation window, the first deliveries are judged alone and
// the retry checks report on retries.
import { defineCheck } from '../../runner/index.ts';
import { isAttemptOf, isRepeatOf, type ReceivedDelivery } from '../../src/webhooks/delivery.ts';
import { describeEvent, REFUSE_FIRST_ATTEMPT, VERIFICATION_FAILED, VERIFICATION_SUCCEEDED, webhookWaitsMs, withWebhookSession, type CausedEvent, type WebhookSession } from './support.ts';
import { observeVerification, verificationBodies, type VerificationDelivery } from './verification-params.ts';

/**
 * The session's deliveries of the caused events, in order of arrival: each
 * first delivery, and each later attempt of one (a repeat of its content or
 * event, else the same key), numbered per event. Anything else is not these
 * events and is left to the session's evidence.
 */
function verificationDeliveries(session: WebhookSession, causes: readonly CausedEvent[], firsts: readonly ReceivedDelivery[]): VerificationDelivery[] {
  const redeliveries = new Map<ReceivedDelivery, number>();
  return session.deliveries.flatMap((delivery) => {
    const index = firsts.indexOf(delivery);
    if (index >= 0) return [{ delivery, caused: causes[index]!, at: `delivery #${delivery.seq}, the first of the ${describeEvent(causes[index]!.event)} event` }];
    const earlier = firsts.filter((first) => first.seq < delivery.seq);
    const first = earlier.find((f) => isRepeatOf(delivery, f)) ?? earlier.find((f) => isAttemptOf(delivery, f));
    if (!first) return [];
    const n = (redeliveries.get(first) ?? 0) + 1;
    redeliveries.set(first, n);
    const caused = causes[firsts.indexOf(first)]!;
    return [{ delivery, caused, at: `delivery #${delivery.seq}, redelivery ${n} of the ${describeEvent(caused.event)} event (first delivered as #${first.seq})` }];
  });
}

defineCheck(
  {
    id: 'webhooks.verification-body-schema',
    title: 'Every verification delivery, successful or failed, first or redelivered, carries params with action, success, user_pid and a Unix-time timestamp',
    requirements: ['WEBHOOK-BODY-SCHEMA'],
    waitsMs: webhookWaitsMs({ deliveries: 1, windows: 1 }),
  },
  async (fixtures) => {
    const { check } = fixtures;
    // This check judges the shape: a delivery whose event cannot be read is taken as the event (support.ts, unreadable.ts).
    await withWebhookSession(fixtures, REFUSE_FIRST_ATTEMPT, async (session) => {
      // Caused back to back and collected side by side: one delivery wait and one observation window for both.
      const causes = [await session.mustCause(VERIFICATION_SUCCEEDED), await session.mustCause(VERIFICATION_FAILED)];
      const firsts = await session.deliveriesOf(causes);
      const redelivered = await Promise.all(firsts.map((first) => session.redeliveryOf(first)));
      const judged = verificationDeliveries(session, causes, firsts);
      const redeliveries = judged.length - firsts.length;
      check.note(`judged ${judged.length} verification deliveries against 6.1: ${firsts.length} first attempts, ${redeliveries} redeliveries`, { deliveries: judged.map((v) => v.at) });
      const notRedelivered = firsts.filter((_, i) => !redelivered[i]);
      if (notRedelivered.length) {
        const which = `#${notRedelivered.map((d) => d.seq).join(', #')}`;
        const one = notRedelivered.length === 1;
        check.note(`no redelivery of ${which} came within ${session.settings.observationWindowMs} ms after ${one ? 'it was' : 'each was'} answered, so ${one ? 'that event was' : 'those events were'} judged on the first delivery alone (the retry checks report on retries)`);
      }
      const { dateSkewSeconds, dateSkewDeclared } = session.settings;
      check.judge(verificationBodies, { deliveries: judged.map(observeVerification), redeliveries, eventUserIds: [...session.eventUserIds], settings: { dateSkewSeconds, dateSkewDeclared } });
    }, { judgesBodyShape: true });
  },
);
