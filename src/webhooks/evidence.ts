// A received delivery as check evidence: the same redacted exchange shape as
// the HTTP client records, with a curl line that replays the delivery
// against a receiver (the signature as a shell placeholder).
import type { RecordedExchange } from '../http/exchange.ts';
import { buildEvidence } from '../http/evidence.ts';
import type { Redactor } from '../http/redact.ts';
import { idempotencyKey, type DeliveryAnswer, type ReceivedDelivery } from './delivery.ts';

/** Above the HTTP client's counter range, so delivery ids never collide with exchange ids. */
const DELIVERY_ID_BASE = 1_000_000_000;

export function deliveryExchange(delivery: ReceivedDelivery, redactor: Redactor, receiverName = "the suite's receiver"): RecordedExchange {
  const headers: Record<string, string> = {};
  for (const [name, value] of delivery.fieldLines) headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  const text = delivery.body.toString('utf8');
  const key = idempotencyKey(delivery);
  const answer = delivery.answer;
  return buildEvidence(redactor, {
    id: DELIVERY_ID_BASE + delivery.seq,
    label: `delivery #${delivery.seq} to ${receiverName}${key ? ` (key ${redactor.redactString(key)})` : ''}`,
    startedAt: delivery.receivedAt,
    durationMs: answer?.delayMs ?? 0,
    method: delivery.method,
    url: delivery.targetUri,
    headers,
    // Kept byte for byte (known secrets aside): a reader recomputes the digest and signature over it.
    body: text || undefined,
    bodyBytes: delivery.body.length,
    bodyKind: 'verbatim',
    incoming: true,
    response: answer?.written ? { status: answer.status, headers: {}, bodyBytes: 0, truncated: false } : undefined,
    error: answer && !answer.written ? { code: 'TIMEOUT', message: hangUpText(answer) } : undefined,
  });
}

function hangUpText(answer: DeliveryAnswer): string {
  const when = answer.hungUpAfterMs === undefined ? '' : ` after ${answer.hungUpAfterMs} ms`;
  return `the sender hung up${when}, before the receiver's ${answer.status}, held for ${answer.delayMs} ms`;
}
