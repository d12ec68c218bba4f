// The receiver obligation (spec 6.1): an answer of 200, 201, 202 or 204,
// without a body, confirms receipt, so the event is not delivered again.
// One check per code, each watching the observation window for another
// attempt of the acknowledged event.
import { defineCheck } from '../../src/check/index.ts';
import { isAttemptOf } from '../../src/webhooks/delivery.ts';
import { offset, VERIFICATION_SUCCEEDED, withWebhookSession } from './support.ts';

export const ACKNOWLEDGEMENT_CODES = [200, 201, 202, 204] as const;

export function declareAcknowledgementChecks(): void {
  for (const code of ACKNOWLEDGEMENT_CODES) {
    defineCheck(
      {
        id: `webhooks.ack-${code}-ends-delivery`,
        title: `A ${code} answer confirms receipt: the event is not delivered again`,
        requirements: ['WEBHOOK-ACK-CODES'],
      },
      async (fixtures) => {
        const { check } = fixtures;
        await withWebhookSession(fixtures, [{ status: code }], async (session) => {
          const { delivery: first } = await session.causeAndReceive(VERIFICATION_SUCCEEDED);
          await session.watchAfter(first);
          const again = session.deliveries.filter((d) => d !== first && isAttemptOf(d, first));
          if (again.length) {
            return check.fail(`the event was delivered again ${again.length} time(s) after the receiver answered ${code}, first at ${offset(again[0]!, first)}`, {
              acknowledgement: code,
              redeliveries: again.map((d) => ({ delivery: d.seq, at: offset(d, first) })),
            });
          }
          check.note(`no redelivery within ${session.settings.observationWindowMs} ms after answering ${code}`);
        });
      },
    );
  }
}
