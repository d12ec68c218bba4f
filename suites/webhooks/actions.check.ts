// The actions of user-update events (spec 6.1) and the statuses of a risk
// evaluation (3.2). Each kind of event is caused once and what arrives is
// recorded for review: the risk-evaluation action string and the params of
// every action but verification are not shown by the spec. A verification
// with the wrong success, or a risk status outside processing, finished and
// cancelled (3.2), is a warning; an event that does not arrive is lateness
// (a profile-declared FAIL under a declared webhooks.deliveryTimeoutMs, else
// not observed). What arrived is judged by event-judgments.ts.
import { defineCheck } from '../../runner/index.ts';
import { eventLayers } from '../../src/webhooks/delivery.ts';
import { describeEvent, eventsToCause, webhookWaitsMs, withWebhookSession, ACKNOWLEDGE, type CausedEvent } from './support.ts';
import { eventActions, type EventDelivered } from './event-judgments.ts';

defineCheck(
  {
    id: 'webhooks.actions-and-risk-statuses',
    title: 'Events name the documented actions; a risk evaluation reports processing, finished or cancelled',
    requirements: ['WEBHOOK-ACTIONS'],
    waitsMs: webhookWaitsMs({ deliveries: 1 }),
  },
  async (fixtures) => {
    const { check } = fixtures;
    await withWebhookSession(fixtures, ACKNOWLEDGE, async (session) => {
      const { riskEvaluationAction } = session.settings;
      const observed: string[] = [];
      // Every event is caused back to back and their deliveries are collected side by side: one delivery wait, not one per event.
      const causes: CausedEvent[] = [];
      for (const event of eventsToCause(riskEvaluationAction)) {
        const { result, caused } = await session.cause(event);
        if (result.ok) causes.push(caused);
        else observed.push(`${describeEvent(event)}: could not be caused (${result.response.status})`);
      }
      // The delivery that carries each action for the user: other notifications and retries of earlier events do not count.
      const deliveries = await Promise.all(causes.map((caused) => session.findDeliveryOf(caused)));
      const delivered: EventDelivered[] = [];
      for (const [i, caused] of causes.entries()) {
        const delivery = deliveries[i];
        if (!delivery) continue;
        // params, or the top level of a body that breaks the shape (the body-schema check judges the shape).
        const members = eventLayers(delivery)[0] ?? {};
        delivered.push({ event: caused.event, seq: delivery.seq, members });
        observed.push(`${describeEvent(caused.event)}: delivery #${delivery.seq} ${JSON.stringify(members)}`);
      }
      const missing = causes.filter((_, i) => !deliveries[i]);
      check.judge(eventActions, { delivered, allArrived: !missing.length, riskEvaluationCaused: Boolean(riskEvaluationAction), observed });
      if (missing.length) return session.late(missing);
    });
  },
);
