// What one user-update delivery must look like (spec 5 rule 5, 6.1): POST
// with application/json, the four headers, a Content-Digest that matches,
// a Date within the skew, a signature that verifies, and the params shape.
// Each check causes one verification event, acknowledges it with 204, and
// judges the delivery that carries that event (support.ts), not whatever
// arrives first. How the digest and signature are computed and the skew are
// not shown: judgements.ts applies the profile's declarations.
import { defineCheck } from '../../runner/index.ts';
import type { CheckContext, CheckFixtures } from '../../runner/index.ts';
import { describeSchemaErrors, validateAgainst } from '../../src/schemas/registry.ts';
import { eventLayers, fieldValue, parsedBody } from '../../src/webhooks/delivery.ts';
import type { ReceivedDelivery } from '../../src/webhooks/delivery.ts';
import { apply, judgeContentDigest, judgeDate, judgeHeadersPresent, judgeSignature } from './judgements.ts';
import { ACKNOWLEDGE, loadSignatureStrategy, VERIFICATION_SUCCEEDED, webhookWaitsMs, withWebhookSession, type CausedEvent, type WebhookSession, type WebhookSettings } from './support.ts';

/** The start most format checks share: cause one verification event, acknowledge it, take its delivery. */
function withAcknowledgedVerification(
  fixtures: CheckFixtures,
  body: (delivery: ReceivedDelivery, session: WebhookSession) => Promise<void>,
): Promise<void> {
  return withWebhookSession(fixtures, ACKNOWLEDGE, async (session) => {
    const { delivery } = await session.causeAndReceive(VERIFICATION_SUCCEEDED);
    await body(delivery, session);
  });
}

/** Unix time in seconds stays below this until the year 5138; milliseconds are far above it. */
const SECONDS_CEILING = 1e11;

/**
 * params.timestamp is "integer, Unix time" (6.1): milliseconds contradict
 * that. How far it may lie from the moment the event was caused is a skew
 * question the spec does not show: the profile's dateSkewSeconds, or a
 * warning beyond the generous default.
 */
function judgeTimestamp(check: CheckContext, timestamp: number, caused: CausedEvent, delivery: ReceivedDelivery, settings: WebhookSettings): void {
  if (timestamp > SECONDS_CEILING) {
    return check.fail(`params.timestamp ${timestamp} is not Unix time (seconds): it looks like milliseconds`, { actual: timestamp });
  }
  const skew = settings.dateSkewSeconds;
  const from = Math.floor(caused.atEpochMs / 1000);
  const to = Math.ceil(delivery.receivedAt.getTime() / 1000);
  if (timestamp >= from - skew && timestamp <= to + skew) return check.note(`params.timestamp ${timestamp} lies within ${skew} s of the time the event was caused (${from} to ${to})`);
  const distance = timestamp < from ? from - timestamp : timestamp - to;
  const message = `params.timestamp ${timestamp} lies ${distance} s ${timestamp < from ? 'before' : 'after'} the event was caused and delivered (${from} to ${to})`;
  const details = { actual: timestamp, causedAt: from, receivedAt: to, skewSeconds: skew };
  if (settings.dateSkewDeclared) return check.failDeclared('webhooks.dateSkewSeconds', `${message}; the profile allows ${skew} s`, details);
  check.warn(`${message}, more than the ${skew} s the suite tolerates when webhooks.dateSkewSeconds is not set (the spec shows no skew)`, details);
}

defineCheck(
  {
    id: 'webhooks.delivery-post-json',
    title: 'A user-update delivery is a POST with Content-Type application/json',
    requirements: ['WEBHOOK-POST-JSON'],
    waitsMs: webhookWaitsMs({ deliveries: 1 }),
  },
  async (fixtures) => {
    const { check } = fixtures;
    await withAcknowledgedVerification(fixtures, async (delivery) => {
      check.assert(delivery.method === 'POST', `delivery #${delivery.seq} used ${delivery.method}, not POST`, { expected: 'POST', actual: delivery.method });
      const type = fieldValue(delivery, 'content-type');
      // Parameters such as charset do not change the media type (RFC 9110 8.3.1).
      const media = type?.split(';')[0]?.trim().toLowerCase();
      check.assert(media === 'application/json', `delivery #${delivery.seq} has Content-Type ${type ?? '(none)'}, expected application/json`, {
        expected: 'application/json',
        actual: type ?? null,
      });
    });
  },
);

defineCheck(
  {
    id: 'webhooks.delivery-headers-present',
    title: 'A delivery carries X-BTS-Idempotency-Key, Signature, Content-Digest and Date',
    requirements: ['WEBHOOK-HEADERS-PRESENT'],
    waitsMs: webhookWaitsMs({ deliveries: 1 }),
  },
  async (fixtures) => {
    await withAcknowledgedVerification(fixtures, async (delivery) => apply(fixtures.check, judgeHeadersPresent(delivery)));
  },
);

defineCheck(
  {
    id: 'webhooks.content-digest-matches',
    title: 'Content-Digest matches the delivered body (RFC 9530, under the declared algorithms)',
    requirements: ['WEBHOOK-CONTENT-DIGEST'],
    waitsMs: webhookWaitsMs({ deliveries: 1 }),
  },
  async (fixtures) => {
    await withAcknowledgedVerification(fixtures, async (delivery, session) => apply(fixtures.check, judgeContentDigest(delivery, session.settings)));
  },
);

defineCheck(
  {
    id: 'webhooks.date-within-skew',
    title: 'Date is an HTTP date within the declared clock skew',
    requirements: ['WEBHOOK-DATE'],
    waitsMs: webhookWaitsMs({ deliveries: 1 }),
  },
  async (fixtures) => {
    await withAcknowledgedVerification(fixtures, async (delivery, session) => apply(fixtures.check, judgeDate(delivery, session.settings)));
  },
);

defineCheck(
  {
    id: 'webhooks.signature-verifies',
    title: 'The delivery signature verifies under the declared scheme and key',
    requirements: ['WEBHOOK-SIGNATURE'],
    waitsMs: webhookWaitsMs({ deliveries: 1 }),
  },
  async (fixtures) => {
    await withWebhookSession(fixtures, ACKNOWLEDGE, async (session) => {
      const strategy = await loadSignatureStrategy(fixtures, session.settings);
      const { delivery } = await session.causeAndReceive(VERIFICATION_SUCCEEDED);
      apply(fixtures.check, await judgeSignature(delivery, strategy, session.settings));
    });
  },
);

defineCheck(
  {
    id: 'webhooks.verification-body-schema',
    title: 'A verification event carries params with action, success, user_pid and a Unix-time timestamp',
    requirements: ['WEBHOOK-BODY-SCHEMA'],
    waitsMs: webhookWaitsMs({ deliveries: 1 }),
  },
  async (fixtures) => {
    const { check } = fixtures;
    // This check judges the shape: a delivery whose event cannot be read is taken as the event (support.ts).
    await withWebhookSession(fixtures, ACKNOWLEDGE, async (session) => {
      const { caused, delivery } = await session.causeAndReceive(VERIFICATION_SUCCEEDED);
      const body = parsedBody(delivery);
      if (body === undefined) return check.fail(`delivery #${delivery.seq} does not carry a JSON body`, { bodyBytes: delivery.body.length });
      // 6.1: "The params for a verification result hold" the four fields: each is required; others may come along.
      const schema = 'user-update-webhook.schema.json#/$defs/verificationEvent';
      const errors = validateAgainst(schema, body);
      if (errors.length) {
        const misplaced = eventLayers(delivery).length === 1 && 'action' in (body as object) ? ' (the event fields sit at the top level, not in params)' : '';
        return check.fail(`delivery #${delivery.seq} does not match ${schema}: ${describeSchemaErrors(errors)}${misplaced}`, { schema, errors: errors.slice(0, 20) });
      }
      const params = (body as { params: { timestamp: number; user_pid: string } }).params;
      judgeTimestamp(check, params.timestamp, caused, delivery, session.settings);
      // Any identifier the user is known by: its id, or the pid the profile declares (webhooks.userPid).
      const known = session.eventUserIds;
      if (!known.some((id) => id.toLowerCase() === params.user_pid.toLowerCase())) {
        check.warn(`params.user_pid ${params.user_pid} is not the user the event was caused for (${known.join(' or ')})`);
      }
    }, { judgesBodyShape: true });
  },
);
