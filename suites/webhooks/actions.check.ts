// The actions of user-update events (spec 6.1) and the statuses of a risk
// evaluation (3.2). Each kind of event is caused once and what arrives is
// recorded for review: the risk-evaluation action string and the params of
// every action but verification are not shown by the spec. A verification
// with the wrong success, or a risk status outside processing, finished and
// cancelled (3.2), is a warning; an event that does not arrive is lateness
// (a profile-declared FAIL under a declared webhooks.deliveryTimeoutMs, else
// not observed).
import { defineCheck } from '../../runner/index.ts';
import { eventLayers } from '../../src/webhooks/delivery.ts';
import { describeEvent, eventsToCause, RISK_STATUSES, webhookWaitsMs, withWebhookSession, ACKNOWLEDGE, type CausedEvent, type UserUpdateEvent } from './support.ts';

/** What one caused event's delivery shows against what was asked: each mismatch with the sentence it departs from. */
function mismatches(event: UserUpdateEvent, members: Record<string, unknown>): Array<{ message: string; on?: string }> {
  const what = describeEvent(event);
  const found: Array<{ message: string; on?: string }> = [];
  if (members.action !== event.action) found.push({ message: `${what} arrived with action ${JSON.stringify(members.action)}` });
  if (event.success !== undefined && members.success !== event.success) found.push({ message: `${what} arrived with success ${JSON.stringify(members.success)}` });
  if (event.status !== undefined && members.status !== event.status) {
    const known = RISK_STATUSES.includes(members.status as string);
    found.push({ message: `${what} arrived with status ${JSON.stringify(members.status)}${known ? '' : ' (not one of processing, finished, cancelled)'}`, ...(known ? {} : { on: 'SPEC-3-2-STATUS' }) });
  }
  return found;
}

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
      const delivered: string[] = [];
      let problems = 0;
      for (const [i, caused] of causes.entries()) {
        const delivery = deliveries[i];
        if (!delivery) continue;
        // params, or the top level of a body that breaks the shape (the body-schema check judges the shape).
        const members = eventLayers(delivery)[0] ?? {};
        delivered.push(String(members.action));
        observed.push(`${describeEvent(caused.event)}: delivery #${delivery.seq} ${JSON.stringify(members)}`);
        for (const mismatch of mismatches(caused.event, members)) {
          problems++;
          check.warn(mismatch.message, { delivery: delivery.seq, members }, mismatch.on ? { on: mismatch.on } : {});
        }
      }
      const missing = causes.filter((_, i) => !deliveries[i]);
      if (missing.length) return session.late(missing);
      if (problems) return;
      const gap = riskEvaluationAction ? '' : '; risk evaluation was not caused: set webhooks.riskEvaluationAction to the action string the implementation uses';
      const actions = [...new Set(delivered)].join(', ') || 'none';
      check.review(`${delivered.length} events delivered with actions ${actions}; the risk-evaluation action string and the params of actions other than verification are not shown by the spec${gap}`, { observed });
    });
  },
);
