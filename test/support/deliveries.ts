// A webhook delivery as the receiver would record it, made up for unit tests
// of what reads deliveries (routing, recognition, repeats).
import { IDEMPOTENCY_HEADER, type ReceivedDelivery } from '../../src/webhooks/delivery.ts';

export function syntheticDelivery(seq: number, body: unknown, key?: string, receivedAtMs = seq): ReceivedDelivery {
  return {
    seq,
    method: 'POST',
    requestTarget: '/hook',
    targetUri: 'http://127.0.0.1/hook',
    fieldLines: key ? [[IDEMPOTENCY_HEADER, key]] : [],
    body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
    bodyTruncated: false,
    receivedAt: new Date(),
    receivedAtMs,
  };
}
