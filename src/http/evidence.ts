// The one place an exchange becomes evidence: the request redacted (URL,
// headers, body clipped), a curl line with secrets as shell placeholders, and
// the response or the transport failure as the caller already redacted them.
// The HTTP client (src/http/client.ts), received webhook deliveries
// (src/webhooks/evidence.ts) and the 413 probe's raw sized exchanges
// (load/probes/body-size/evidence.ts) all map their own inputs onto it.
import { clipForEvidence, curlLine, type RecordedExchange, type RecordedResponse } from './exchange.ts';
import type { Redactor } from './redact.ts';

/**
 * How a request body is redacted:
 * - 'structured': key by key where it parses (JSON, form), so secret fields are
 *   caught and learned; the curl body is folded onto one line.
 * - 'verbatim': byte for byte, known secrets aside, so a reader can recompute a
 *   digest or signature over it (webhook deliveries).
 */
export type BodyKind = 'structured' | 'verbatim';

/**
 * How much of the body is kept:
 * - 'evidence': up to EVIDENCE_BODY_LIMIT (src/http/exchange.ts).
 * - 'padding': the first PADDING_KEPT characters, for bodies padded to a size
 *   (the 413 probe), where the rest is filler nobody needs to read.
 */
export type BodyClip = 'evidence' | 'padding';

/** What a sized body keeps: enough to show the real fields in front of the padding. */
const PADDING_KEPT = 2048;

export interface EvidenceInput {
  id: number;
  label?: string;
  startedAt: Date;
  durationMs: number;
  method: string;
  url: string;
  headers: Record<string, string>;
  /** The request body as text; undefined when there is none to show. */
  body?: string;
  /** The size of the request body as sent (or declared). */
  bodyBytes: number;
  bodyKind: BodyKind;
  clip?: BodyClip;
  /** Already redacted by the caller: how a response is read differs between callers. */
  response?: RecordedResponse;
  error?: RecordedExchange['error'];
  /** The implementation sent it (a webhook delivery), not the suite. */
  incoming?: true;
  /** The suite made up the request's input outside the operation's domain. */
  invented?: true;
  /** The exchange this one repeats after its transient answer (or the suite's own expired token). */
  retryOf?: number;
}

export function buildEvidence(redactor: Redactor, input: EvidenceInput): RecordedExchange {
  const { method, url, headers, body, bodyKind, response, error } = input;
  const redactBody = (text: string, style: 'marker' | 'shell') =>
    bodyKind === 'verbatim' ? redactor.redactString(text, style) : redactor.redactBody(text, style);
  return {
    id: input.id,
    label: input.label,
    startedAt: input.startedAt.toISOString(),
    durationMs: input.durationMs,
    request: {
      method,
      url: redactor.redactString(url),
      headers: redactor.redactHeaders(headers),
      body: body === undefined ? undefined : clipBody(redactBody(body, 'marker'), input.clip ?? 'evidence'),
      bodyBytes: input.bodyBytes,
    },
    ...(response ? { response } : {}),
    ...(error ? { error } : {}),
    ...(input.incoming ? { incoming: true as const } : {}),
    ...(input.invented ? { invented: true as const } : {}),
    ...(input.retryOf !== undefined ? { retryOf: input.retryOf } : {}),
    curl: curlLine(
      method,
      redactor.redactString(url, 'shell'),
      redactor.redactHeaders(headers, 'shell'),
      body === undefined ? undefined : curlBody(redactBody(body, 'shell'), bodyKind),
    ),
  };
}

function clipBody(text: string, clip: BodyClip): string {
  if (clip === 'evidence') return clipForEvidence(text);
  return text.length > PADDING_KEPT ? `${text.slice(0, PADDING_KEPT)}… [${text.length - PADDING_KEPT} more characters of padding not kept]` : text;
}

/** A structured body is re-serialized over several lines; curl gets it on one. A verbatim body stays as received. */
function curlBody(text: string, bodyKind: BodyKind): string {
  return bodyKind === 'verbatim' ? text : text.replace(/\n\s*/g, '');
}
