// What one user-update delivery must look like (spec 5 rule 5, 6.1): POST
// with application/json, the four headers, a Content-Digest that matches,
// a Date within the skew, a signature that verifies, and the params shape.
// Each check causes one verification event and acknowledges it with 204.
import { defineCheck } from '../../src/check/index.ts';
import { describeSchemaErrors, validateAgainst } from '../../src/schemas/registry.ts';
import { fieldValue, IDEMPOTENCY_HEADER, parsedBody } from '../../src/webhooks/delivery.ts';
import { verifyContentDigest } from '../../src/webhooks/digest.ts';
import { checkHttpDate } from '../../src/webhooks/http-date.ts';
import { signatureStrategy } from '../../src/webhooks/signature/index.ts';
import { ACKNOWLEDGE, VERIFICATION_SUCCEEDED, withWebhookSession, type WebhookSession } from './support.ts';
import type { CheckFixtures } from '../../src/check/index.ts';
import type { ReceivedDelivery } from '../../src/webhooks/delivery.ts';

/** The start most format checks share: cause one verification event, acknowledge it, look at its first delivery. */
function withAcknowledgedVerification(fixtures: CheckFixtures, body: (delivery: ReceivedDelivery, session: WebhookSession) => Promise<void>): Promise<void> {
  return withWebhookSession(fixtures, ACKNOWLEDGE, async (session) => {
    await session.mustCause(VERIFICATION_SUCCEEDED);
    await body(await session.firstDelivery('verification'), session);
  });
}

const REQUIRED_HEADERS = [IDEMPOTENCY_HEADER, 'signature', 'content-digest', 'date'];
/** Unix time in seconds stays below this until the year 5138; milliseconds are far above it. */
const SECONDS_CEILING = 1e11;

export function declareDeliveryFormatChecks(): void {
  defineCheck(
    {
      id: 'webhooks.delivery-post-json',
      title: 'A user-update delivery is a POST with Content-Type application/json',
      area: 'webhooks',
      requirements: ['WEBHOOK-POST-JSON'],
      severity: 'MUST',
    },
    async (fixtures) => {
      const { check } = fixtures;
      await withAcknowledgedVerification(fixtures, async (delivery, session) => {
        check.assert(delivery.method === 'POST', `delivery #${delivery.seq} used ${delivery.method}, not POST`, { expected: 'POST', actual: delivery.method });
        const type = fieldValue(delivery, 'content-type');
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
      area: 'webhooks',
      requirements: ['WEBHOOK-HEADERS-PRESENT'],
      severity: 'MUST',
    },
    async (fixtures) => {
      const { check } = fixtures;
      await withAcknowledgedVerification(fixtures, async (delivery, session) => {
        const missing = REQUIRED_HEADERS.filter((name) => !fieldValue(delivery, name));
        const present = [...new Set(delivery.fieldLines.map(([name]) => name))];
        check.assert(missing.length === 0, `delivery #${delivery.seq} lacks ${missing.join(', ')}`, { missing, present });
      });
    },
  );

  defineCheck(
    {
      id: 'webhooks.content-digest-matches',
      title: 'Content-Digest matches the delivered body (RFC 9530)',
      area: 'webhooks',
      requirements: ['WEBHOOK-CONTENT-DIGEST'],
      severity: 'MUST',
    },
    async (fixtures) => {
      const { check } = fixtures;
      await withAcknowledgedVerification(fixtures, async (delivery, session) => {
        if (delivery.bodyTruncated) return check.fail(`delivery #${delivery.seq} has a body too large for the receiver to digest`);
        const verdict = verifyContentDigest(fieldValue(delivery, 'content-digest'), delivery.body, session.settings.digestAlgorithms);
        if (!verdict.ok) return check.fail(`delivery #${delivery.seq}: ${verdict.reason}`, { compared: verdict.compared, ignored: verdict.ignored });
        check.note(`Content-Digest ${verdict.compared.map((c) => c.algorithm).join(' and ')} match the ${delivery.body.length}-byte body`, { ignored: verdict.ignored });
      });
    },
  );

  defineCheck(
    {
      id: 'webhooks.date-within-skew',
      title: 'Date is an IMF-fixdate within the configured clock skew',
      area: 'webhooks',
      requirements: ['WEBHOOK-DATE'],
      severity: 'MUST',
    },
    async (fixtures) => {
      const { check } = fixtures;
      await withAcknowledgedVerification(fixtures, async (delivery, session) => {
        const verdict = checkHttpDate(fieldValue(delivery, 'date'), delivery.receivedAt, session.settings.dateSkewSeconds);
        if (!verdict.ok) {
          return check.fail(`delivery #${delivery.seq}: ${verdict.reason}`, { skewSeconds: session.settings.dateSkewSeconds, offsetSeconds: verdict.offsetSeconds });
        }
        check.note(`Date is ${verdict.offsetSeconds} s from the receipt time (allowed ${session.settings.dateSkewSeconds} s)`);
      });
    },
  );

  defineCheck(
    {
      id: 'webhooks.signature-verifies',
      title: 'The delivery signature verifies under the configured scheme and key',
      area: 'webhooks',
      requirements: ['WEBHOOK-SIGNATURE'],
      severity: 'MUST',
    },
    async (fixtures) => {
      const { check, http } = fixtures;
      await withWebhookSession(fixtures, ACKNOWLEDGE, async (session) => {
        const config = session.settings.signature;
        // Load the keys first: a JWK Set that cannot be had is a set-up error, not the delivery's fault.
        const strategy = config ? await signatureStrategy(config, http, session.settings.dateSkewSeconds) : undefined;
        await session.mustCause(VERIFICATION_SUCCEEDED);
        const delivery = await session.firstDelivery('verification');
        if (!strategy) {
          const input = fieldValue(delivery, 'signature-input');
          const signature = fieldValue(delivery, 'signature');
          check.review(
            `no signature scheme is configured (webhooks.signature), so the signature was recorded, not verified: Signature ${signature ? `of ${signature.length} characters` : 'absent'}${input ? `, Signature-Input ${input}` : ''}`,
            { signatureInput: input ?? null, signaturePresent: signature !== undefined },
          );
          return;
        }
        const verdict = await strategy.verify(delivery, delivery.receivedAt);
        if (!verdict.verified) return check.fail(`delivery #${delivery.seq}: ${verdict.reason}`, { scheme: strategy.description, ...verdict.details });
        check.note(`${verdict.reason} (${strategy.description})`);
      });
    },
  );

  defineCheck(
    {
      id: 'webhooks.verification-body-schema',
      title: 'A verification event carries params with action, success, user_pid and a Unix-time timestamp',
      area: 'webhooks',
      requirements: ['WEBHOOK-BODY-SCHEMA'],
      severity: 'MUST',
    },
    async (fixtures) => {
      const { check } = fixtures;
      await withWebhookSession(fixtures, ACKNOWLEDGE, async (session) => {
        const causedAt = Date.now();
        await session.mustCause(VERIFICATION_SUCCEEDED);
        const delivery = await session.firstDelivery('verification');
        const body = parsedBody(delivery);
        if (body === undefined) return check.fail(`delivery #${delivery.seq} does not carry a JSON body`, { bodyBytes: delivery.body.length });
        const schema = 'user-update-webhook.schema.json#/$defs/verificationEvent';
        const errors = validateAgainst(schema, body);
        if (errors.length) return check.fail(`delivery #${delivery.seq} does not match ${schema}: ${describeSchemaErrors(errors)}`, { schema, errors: errors.slice(0, 20) });

        const params = (body as { params: { timestamp: number; user_pid: string } }).params;
        const skew = session.settings.dateSkewSeconds;
        const earliest = Math.floor(causedAt / 1000) - skew;
        const latest = Math.ceil(delivery.receivedAt.getTime() / 1000) + skew;
        if (params.timestamp > SECONDS_CEILING) {
          return check.fail(`params.timestamp ${params.timestamp} is not Unix time in seconds (it looks like milliseconds)`, { actual: params.timestamp });
        }
        if (params.timestamp < earliest || params.timestamp > latest) {
          return check.fail(`params.timestamp ${params.timestamp} is not the time of the event: it was caused between ${earliest + skew} and ${latest - skew} (allowed skew ${skew} s)`, {
            actual: params.timestamp,
            expected: { from: earliest, to: latest },
          });
        }
        if (params.user_pid !== session.settings.userId) {
          check.warn(`params.user_pid ${params.user_pid} is not the user the event was caused for (${session.settings.userId})`);
        }
      });
    },
  );
}
