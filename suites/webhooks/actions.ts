// The actions of user-update events (spec 6.1) and the statuses of a risk
// evaluation (3.2). Each kind of event is caused once and what arrives is
// recorded for review: the risk-evaluation action string and the params of
// every action but verification are not shown by the spec. An event that
// does not arrive, a verification with the wrong success, or a risk status
// outside processing, finished and cancelled, is a warning.
import { defineCheck } from '../../src/check/index.ts';
import { eventLayers } from '../../src/webhooks/delivery.ts';
import { describeEvent, withWebhookSession, ACKNOWLEDGE, type UserUpdateEvent } from './support.ts';

const RISK_STATUSES = ['processing', 'finished', 'cancelled'];

/** Every user-update event the suite can ask for: each action, and each risk status when the profile names the risk action. */
export function eventsToCause(riskEvaluationAction: string | undefined): UserUpdateEvent[] {
  const risk = riskEvaluationAction ? RISK_STATUSES.map((status) => ({ action: riskEvaluationAction, status })) : [];
  return [
    { action: 'verification', success: true },
    { action: 'verification', success: false },
    { action: 'blacklisting' },
    { action: 'inactivation' },
    ...risk,
  ];
}

export function declareActionChecks(): void {
  defineCheck(
    {
      id: 'webhooks.actions-and-risk-statuses',
      title: 'Events name the documented actions; a risk evaluation reports processing, finished or cancelled',
      requirements: ['WEBHOOK-ACTIONS'],
    },
    async (fixtures) => {
      const { check } = fixtures;
      await withWebhookSession(fixtures, ACKNOWLEDGE, async (session) => {
        const { riskEvaluationAction } = session.settings;
        const observed: string[] = [];
        const problems: string[] = [];
        const delivered: string[] = [];
        for (const event of eventsToCause(riskEvaluationAction)) {
          const what = describeEvent(event);
          const { result, caused } = await session.cause(event);
          if (!result.ok) {
            observed.push(`${what}: could not be caused (${result.response.status})`);
            continue;
          }
          // The delivery that carries this action for the user: other notifications and retries of earlier events do not count.
          const delivery = await session.findDeliveryOf(caused);
          if (!delivery) {
            problems.push(`${what}: nothing carrying action ${JSON.stringify(event.action)} for the user was delivered within ${session.settings.deliveryTimeoutMs} ms`);
            continue;
          }
          // params, or the top level of a body that breaks the shape (the body-schema check judges the shape).
          const members = eventLayers(delivery)[0] ?? {};
          delivered.push(String(members.action));
          observed.push(`${what}: delivery #${delivery.seq} ${JSON.stringify(members)}`);
          if (members.action !== event.action) problems.push(`${what} arrived with action ${JSON.stringify(members.action)}`);
          if (event.success !== undefined && members.success !== event.success) problems.push(`${what} arrived with success ${JSON.stringify(members.success)}`);
          if (event.status !== undefined && members.status !== event.status) {
            const known = RISK_STATUSES.includes(members.status as string) ? '' : ' (not one of processing, finished, cancelled)';
            problems.push(`${what} arrived with status ${JSON.stringify(members.status)}${known}`);
          }
        }
        if (problems.length) return check.fail(problems.join('; '), { observed });
        const gap = riskEvaluationAction ? '' : '; risk evaluation was not caused: set webhooks.riskEvaluationAction to the action string the implementation uses';
        const actions = [...new Set(delivered)].join(', ') || 'none';
        check.review(`${delivered.length} events delivered with actions ${actions}; the risk-evaluation action string and the params of actions other than verification are not shown by the spec${gap}`, { observed });
      });
    },
  );
}
