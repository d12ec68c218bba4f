// One delivery attempt of a user-update event as an HTTP request (spec 5
// rule 5, 6.1): POST, application/json, X-BTS-Idempotency-Key, Date
// (IMF-fixdate), Content-Digest (RFC 9530, sha-256) and an RFC 9421
// signature over method, target URI, content type, digest, date and key.
// Date and signature are made per attempt; body and key belong to the event.
import { createHash, randomUUID } from 'node:crypto';
import { serializeDictionary } from 'structured-headers';
import type { FaultSet } from '../faults/index.ts';
import type { WebhookSigner } from './signer.ts';

export interface WebhookEvent {
  id: string;
  idempotencyKey: string;
  /** The receiving address at the time the event happened. */
  url: string;
  params: Record<string, unknown>;
  body: string;
}

export interface DeliveryRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

const STALE_DATE_MS = 10 * 60_000;

function contentDigest(text: string): string {
  return serializeDictionary(new Map([['sha-256', [createHash('sha256').update(text).digest(), new Map()]]]));
}

export async function buildDelivery(event: WebhookEvent, attempt: number, faults: FaultSet, signer: WebhookSigner): Promise<DeliveryRequest> {
  const method = faults.has('webhook-put-method') ? 'PUT' : 'POST';
  const keyHeader = faults.has('webhook-idempotency-header-renamed') ? 'idempotency-key' : 'x-bts-idempotency-key';
  const key = attempt > 1 && faults.has('webhook-new-key-per-attempt') ? randomUUID() : event.idempotencyKey;
  const digested = faults.has('webhook-digest-other-body') ? JSON.stringify(JSON.parse(event.body), null, 2) : event.body;
  const date = new Date(Date.now() - (faults.has('webhook-stale-date') ? STALE_DATE_MS : 0));
  const headers: Record<string, string> = {
    'content-type': faults.has('webhook-content-type-text') ? 'text/plain' : 'application/json',
    [keyHeader]: key,
    // toUTCString() is exactly the IMF-fixdate format.
    date: date.toUTCString(),
    'content-digest': contentDigest(digested),
  };
  const covered = ['@method', '@target-uri', 'content-type', 'content-digest', 'date', keyHeader].filter(
    (c) => !(c === 'content-digest' && faults.has('webhook-signature-skips-digest')),
  );
  const signature = await signer.sign({ method, targetUri: new URL(event.url).href, headers }, covered, {
    withUnpublishedKey: faults.has('webhook-signature-wrong-key'),
  });
  return { method, url: event.url, headers: { ...headers, ...signature }, body: event.body };
}
