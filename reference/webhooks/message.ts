// One delivery attempt of an event as an HTTP request (spec 5 rule 5, 6.1):
// POST, application/json, X-BTS-Idempotency-Key, Date (IMF-fixdate),
// Content-Digest (RFC 9530, sha-256) and an RFC 9421 signature over method,
// target URI, content type, digest, date and key. Date and signature are
// made per attempt; body and key belong to the event. Offer-status
// notifications (another kind, 6.2) are delivered the same way.
//
// Variants (reference/variants/webhooks.ts): webhook-json-charset labels the
// body application/json; charset=utf-8; webhook-digest-sha512 digests with
// sha-512 only; webhook-signature-more-components also sends and covers host
// and content-length, with created and expires, in the deployed API's order;
// webhook-signature-base64url writes the signature bytes in base64url (the
// algorithm, hmac-sha256 or ECDSA, is the signer's: routes/webhooks.ts).
// Signature faults: webhook-signature-wrong-key, -skips-digest, -expired,
// -component-outside-base and -ecdsa-der (reference/faults/webhooks.ts);
// webhook-redelivery-without-timestamp sends (digests, signs) redeliveries
// of user-update events without params.timestamp.
import { createHash, randomUUID } from 'node:crypto';
import { serializeDictionary } from 'structured-headers';
import type { FaultSet } from '../faults/index.ts';
import type { VariantSet } from '../variants/index.ts';
import { withoutTimestamp } from './events.ts';
import type { WebhookSigner } from './signer.ts';

export interface WebhookEvent {
  id: string;
  /** user-update (6.1), or offer-status: another kind of 6.2, sent with the webhook-unrelated-notifications variant. */
  kind: 'user-update' | 'offer-status';
  idempotencyKey: string;
  /** The receiving address at the time the event happened. */
  url: string;
  body: string;
}

export interface DeliveryRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** What shapes a delivery besides the event: the reference's faults and variants. */
export interface DeliveryChoices {
  faults: FaultSet;
  variants: VariantSet;
}

const STALE_DATE_MS = 10 * 60_000;
/** webhook-signature-expired: created ten minutes ago with a five-minute lifetime, so it expired five minutes ago. */
const EXPIRED_CREATED_SECONDS_AGO = 600;
const EXPIRED_LIFETIME_SECONDS = 300;
/** REAL-API-NOTES: the deployed API's signatures expire 5 minutes after creation. */
const DEPLOYED_SIGNATURE_LIFETIME_SECONDS = 300;

function contentTypeOf({ faults, variants }: DeliveryChoices): string {
  if (faults.has('webhook-content-type-text')) return 'text/plain';
  return variants.has('webhook-json-charset') ? 'application/json; charset=utf-8' : 'application/json';
}

// Computed here rather than with the suite's digest module, so a mistake on one side shows on the other.
function contentDigest(text: string, algorithm: 'sha-256' | 'sha-512'): string {
  const digest = createHash(algorithm === 'sha-512' ? 'sha512' : 'sha256').update(text).digest();
  return serializeDictionary(new Map([[algorithm, [digest, new Map()]]]));
}

function digestOf(event: WebhookEvent, body: string, { faults, variants }: DeliveryChoices): string | undefined {
  if (event.kind !== 'user-update' && faults.has('webhook-other-kinds-undigested')) return undefined;
  const digested = faults.has('webhook-digest-other-body') ? JSON.stringify(JSON.parse(body), null, 2) : body;
  const digest = contentDigest(digested, variants.has('webhook-digest-sha512') ? 'sha-512' : 'sha-256');
  // RFC 3230's Digest form under RFC 9530's name: the base64 without the colons of a byte sequence.
  return faults.has('webhook-digest-legacy-form') ? digest.replace(/=:(.*):$/, '=$1') : digest;
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** The obsolete RFC 850 form of an HTTP-date ("Sunday, 06-Nov-94 08:49:37 GMT"), which recipients read and senders must not generate (RFC 9110 5.6.7). */
function rfc850Date(date: Date): string {
  const [, day, month, year, time] = date.toUTCString().split(' ');
  return `${WEEKDAYS[date.getUTCDay()]}, ${day}-${month}-${year!.slice(2)} ${time} GMT`;
}

export async function buildDelivery(event: WebhookEvent, attempt: number, choices: DeliveryChoices, signer: WebhookSigner): Promise<DeliveryRequest> {
  const { faults, variants } = choices;
  const method = faults.has('webhook-put-method') ? 'PUT' : 'POST';
  const keyHeader = faults.has('webhook-idempotency-header-renamed') ? 'idempotency-key' : 'x-bts-idempotency-key';
  const key = attempt > 1 && faults.has('webhook-new-key-per-attempt') ? randomUUID() : event.idempotencyKey;
  const date = new Date(Date.now() - (faults.has('webhook-stale-date') ? STALE_DATE_MS : 0));
  const body = attempt > 1 && event.kind === 'user-update' && faults.has('webhook-redelivery-without-timestamp') ? withoutTimestamp(event.body) : event.body;
  const digest = digestOf(event, body, choices);
  const headers: Record<string, string> = {
    'content-type': contentTypeOf(choices),
    [keyHeader]: key,
    // toUTCString() is exactly the IMF-fixdate format.
    date: faults.has('webhook-date-rfc850') ? rfc850Date(date) : date.toUTCString(),
    ...(digest ? { 'content-digest': digest } : {}),
  };
  const moreComponents = variants.has('webhook-signature-more-components');
  let covered = ['@method', '@target-uri', 'content-type', 'content-digest', 'date', keyHeader];
  if (moreComponents) {
    // Sent explicitly so that the signed values are the ones on the wire.
    headers.host = new URL(event.url).host;
    headers['content-length'] = String(Buffer.byteLength(body));
    covered = ['@method', '@target-uri', 'host', 'date', 'content-digest', 'content-type', 'content-length', keyHeader];
  }
  covered = covered.filter((c) => c !== 'content-digest' || (digest !== undefined && !faults.has('webhook-signature-skips-digest')));
  if (attempt > 1 && faults.has('webhook-redelivery-unsigned')) return { method, url: event.url, headers, body };
  const expired = faults.has('webhook-signature-expired');
  const signature = await signer.sign({ method, targetUri: new URL(event.url).href, headers }, covered, {
    withUnpublishedKey: faults.has('webhook-signature-wrong-key'),
    expiresInSeconds: expired ? EXPIRED_LIFETIME_SECONDS : moreComponents ? DEPLOYED_SIGNATURE_LIFETIME_SECONDS : undefined,
    createdSecondsAgo: expired ? EXPIRED_CREATED_SECONDS_AGO : undefined,
    leftOutOfBase: faults.has('webhook-signature-component-outside-base') ? ['content-digest'] : undefined,
    derEncoded: faults.has('webhook-signature-ecdsa-der'),
    base64url: variants.has('webhook-signature-base64url'),
  });
  return { method, url: event.url, headers: { ...headers, ...signature }, body };
}
