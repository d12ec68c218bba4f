// The evidence of one exchange as the client records it: the request
// redacted (URL, headers, body clipped), a curl line with secrets as shell
// placeholders, and the response or the transport failure.
import { clipForEvidence, curlLine, type RecordedExchange } from './exchange.ts';
import type { OutgoingRequest } from './outgoing.ts';
import type { Redactor } from './redact.ts';

export interface ExchangeMeta {
  id: number;
  label?: string;
  startedAt: Date;
  /** performance.now() at the start: the recorded duration runs to the moment of recording. */
  t0: number;
}

export function exchangeEvidence(
  redactor: Redactor,
  outgoing: OutgoingRequest,
  meta: ExchangeMeta,
  outcome: Pick<RecordedExchange, 'response' | 'error'>,
): RecordedExchange {
  const { method, url, headers, body } = outgoing;
  const bodyText = body === undefined ? undefined : Buffer.isBuffer(body) ? body.toString('utf8') : body;
  return {
    id: meta.id,
    label: meta.label,
    startedAt: meta.startedAt.toISOString(),
    durationMs: Math.round((performance.now() - meta.t0) * 10) / 10,
    request: {
      method,
      url: redactor.redactString(url.toString()),
      headers: redactor.redactHeaders(headers),
      body: bodyText === undefined ? undefined : clipForEvidence(redactor.redactBody(bodyText)),
      bodyBytes: body === undefined ? 0 : Buffer.byteLength(body),
    },
    curl: curlLine(
      method,
      redactor.redactString(url.toString(), 'shell'),
      redactor.redactHeaders(headers, 'shell'),
      bodyText === undefined ? undefined : redactor.redactBody(bodyText, 'shell').replace(/\n\s*/g, ''),
    ),
    ...outcome,
  };
}
