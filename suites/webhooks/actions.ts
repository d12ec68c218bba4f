// The actions of user-update events (spec 6.1) and the statuses of a risk
// evaluation (3.2). Each kind of event is caused once and what arrives is
// recorded for review: the risk-evaluation action string and the params of
// every action but verification are not shown by the spec. An action other
// than the one caused, or a risk status outside processing, finished and
// cancelled, is a warning.
import { defineCheck } from '../../src/check/index.ts';
import { contentFingerprint, paramsOf } from '../../src/webhooks/delivery.ts';
import { describeEvent, withWebhookSession, ACKNOWLEDGE, type UserUpdateEvent } from './support.ts';

const RISK_STATUSES = ['processing', 'finished', 'cancelled'];

function eventsToCause(riskEvaluationAction: string | undefined): UserUpdateEvent[] {
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
      area: 'webhooks',
      requirements: ['WEBHOOK-ACTIONS'],
      severity: 'REVIEW',
    },
    async (fixtures) => {
      const { check } = fixtures;
      await withWebhookSession(fixtures, ACKNOWLEDGE, async (session) => {
        const { riskEvaluationAction } = session.settings;
        const seen = new Set<string>();
        const observed: string[] = [];
        const problems: string[] = [];
        const delivered: string[] = [];
        for (const event of eventsToCause(riskEvaluationAction)) {
          const what = describeEvent(event);
          const caused = await session.cause(event);
          if (!caused.ok) {
            observed.push(`${what}: could not be caused (${caused.response.status})`);
            continue;
          }
          // The next delivery with content not seen before: retries of earlier events do not count.
          const delivery = await session.waitFor((d) => !seen.has(contentFingerprint(d)));
          if (!delivery) {
            problems.push(`${what}: nothing delivered within ${session.settings.deliveryTimeoutMs} ms`);
            continue;
          }
          seen.add(contentFingerprint(delivery));
          const params = paramsOf(delivery) ?? {};
          delivered.push(String(params.action));
          observed.push(`${what}: delivery #${delivery.seq} params ${JSON.stringify(params)}`);
          if (params.action !== event.action) problems.push(`${what} arrived with action ${JSON.stringify(params.action)}`);
          if (event.success !== undefined && params.success !== event.success) problems.push(`${what} arrived with success ${JSON.stringify(params.success)}`);
          if (event.status !== undefined && params.status !== event.status) {
            const known = RISK_STATUSES.includes(params.status as string) ? '' : ' (not one of processing, finished, cancelled)';
            problems.push(`${what} arrived with status ${JSON.stringify(params.status)}${known}`);
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
