// Spec 5 rule 5 is about every outgoing webhook, not only the first attempt
// of the event a check looks at: "Outgoing webhooks carry the headers
// Signature, Content-Digest, Date and X-BTS-Idempotency-Key, and a receiver
// can use them to verify and de-duplicate messages". This check causes every
// kind of user-update event (back to back), answers the first attempt of
// each with 500 so that a redelivery comes, and judges EVERY delivery the
// receiver got in the meantime — redeliveries and notifications of other kinds (6.2) included —
// for the four headers, the digest, the Date and the signature, by the same
// judgements as the single-delivery checks (delivery-judgments.ts).
import { defineCheck } from '../../runner/index.ts';
import { isAttemptOf, type ReceivedDelivery } from '../../src/webhooks/delivery.ts';
import { observeDelivery } from './judgements.ts';
import { everyDeliveryVerifiable, headerDeclarations, type DeliveryInRole } from './delivery-judgments.ts';
import { describeEvent, eventsToCause, loadSignatureStrategy, REFUSE_FIRST_ATTEMPT, webhookWaitsMs, withWebhookSession, type CausedEvent, type WebhookSession } from './support.ts';

/** What a delivery is to this check, for the report: an event it caused, a redelivery, or something else. */
function roleOf(delivery: ReceivedDelivery, session: WebhookSession, events: ReadonlyMap<ReceivedDelivery, string>): string {
  const event = events.get(delivery);
  if (event) return `first attempt of the ${event} event`;
  const earlier = session.deliveries.find((d) => d.seq < delivery.seq && isAttemptOf(delivery, d));
  if (earlier) return `redelivery of #${earlier.seq}`;
  return 'another notification';
}

defineCheck(
  {
    id: 'webhooks.every-delivery-verifiable',
    title: 'Every delivery, redeliveries and other notifications included, carries the four headers, a matching digest and a valid signature',
    requirements: ['WEBHOOK-EVERY-DELIVERY'],
    waitsMs: webhookWaitsMs({ deliveries: 1, windows: 1 }),
  },
  async (fixtures) => {
    const { check } = fixtures;
    await withWebhookSession(fixtures, REFUSE_FIRST_ATTEMPT, async (session) => {
      const strategy = await loadSignatureStrategy(fixtures, session.settings);
      const events = new Map<ReceivedDelivery, string>();
      const notCaused: string[] = [];
      // Every event is caused back to back and collected side by side: one delivery wait, not one per event.
      const causes: CausedEvent[] = [];
      for (const event of eventsToCause(session.settings.riskEvaluationAction)) {
        const { result, caused } = await session.cause(event);
        // Whether each event can be caused and arrives is other checks' business; this one judges what arrives.
        if (result.ok) causes.push(caused);
        else notCaused.push(`${describeEvent(event)} (trigger answered ${result.response.status})`);
      }
      const firsts = await Promise.all(causes.map((caused) => session.findDeliveryOf(caused)));
      for (const [i, delivery] of firsts.entries()) {
        if (delivery) events.set(delivery, describeEvent(causes[i]!.event));
        else notCaused.push(`${describeEvent(causes[i]!.event)} (not delivered)`);
      }
      if (!events.size) throw new Error(`no user-update event could be caused and received: ${notCaused.join(', ')} (webhooks.trigger)`);
      // Redeliveries of the refused first attempts come during the window after each; one each is all this check judges.
      await Promise.all([...events.keys()].map((first) => session.redeliveryOf(first)));

      const judged: DeliveryInRole[] = [];
      const roles: Record<string, string> = {};
      for (const delivery of [...session.deliveries]) {
        const role = roleOf(delivery, session, events);
        roles[`#${delivery.seq}`] = role;
        judged.push({ delivery: await observeDelivery(delivery, strategy), role });
      }
      const counts = Object.values(roles).reduce<Record<string, number>>((acc, role) => {
        const kind = role.startsWith('first') ? 'first attempts' : role.startsWith('redelivery') ? 'redeliveries' : 'other notifications';
        acc[kind] = (acc[kind] ?? 0) + 1;
        return acc;
      }, {});
      const summary = Object.entries(counts).map(([kind, n]) => `${n} ${kind}`).join(', ');
      check.note(`judged ${session.deliveries.length} deliveries: ${summary}`, { roles, notCaused });
      if (!counts.redeliveries) {
        check.note(`no redelivery arrived within ${session.settings.observationWindowMs} ms of the last event, so no redelivery was judged (the retry checks report on retries)`);
      }
      check.judge(everyDeliveryVerifiable, { deliveries: judged, declared: headerDeclarations(session.settings) });
    });
  },
);
