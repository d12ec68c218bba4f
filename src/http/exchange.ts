// The evidence model: one recorded HTTP exchange, already redacted. This is
// what results.json and the HTML report show for a check.
import type { SchemaError } from '../schemas/registry.ts';

/** Bodies larger than this are cut in evidence (the check itself saw the whole body up to the response cap). */
export const EVIDENCE_BODY_LIMIT = 16 * 1024;

export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  bodyBytes: number;
}

export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  body?: string;
  bodyBytes: number;
  /** The body was longer than the response cap and was cut off while reading. */
  truncated: boolean;
}

export interface RecordedExchange {
  id: number;
  /** What the check was doing, e.g. "refresh with the used refresh token". */
  label?: string;
  startedAt: string;
  durationMs: number;
  request: RecordedRequest;
  response?: RecordedResponse;
  /** A transport failure instead of (or after) a response. */
  error?: { code: string; message: string };
  /** The implementation sent it (a webhook delivery to the suite's receiver), not the suite. */
  incoming?: true;
  /** The suite made up this request's input outside the operation's domain (a hostile probe). */
  invented?: true;
  /**
   * The client sent this request again after the answer of exchange `retryOf`
   * (a transient answer, a connection reset, a 401 to the suite's own expired
   * token): that answer is one a retry got past.
   */
  retryOf?: number;
  /** A copy-pasteable reproduction with secrets as shell placeholders. */
  curl: string;
  schemaErrors?: SchemaError[];
}

export interface ExchangeRecorder {
  record(exchange: RecordedExchange): void;
  /** A step worth a line in the check's timeline (a request asked again after a transient answer). */
  event?(event: string, detail?: string): void;
}

export function clipForEvidence(text: string): string {
  if (text.length <= EVIDENCE_BODY_LIMIT) return text;
  return `${text.slice(0, EVIDENCE_BODY_LIMIT)}\n… [${text.length - EVIDENCE_BODY_LIMIT} more characters not kept in evidence]`;
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Builds a curl line from already shell-redacted parts (placeholders stay unquoted-expandable). */
export function curlLine(method: string, url: string, headers: Record<string, string>, body: string | undefined): string {
  const expandable = (text: string): string =>
    // Placeholders like $PTAS_CLIENT_SECRET must expand, so those parts go in double quotes.
    /\$[A-Z_]+/.test(text) ? `"${text.replace(/(["\\`])/g, '\\$1')}"` : shellQuote(text);
  const parts = ['curl', '-sS', '-X', method, expandable(url)];
  for (const [name, value] of Object.entries(headers)) {
    if (name === 'content-length' || name === 'host') continue;
    parts.push('-H', expandable(`${name}: ${value}`));
  }
  if (body !== undefined && body.length > 0) {
    parts.push('--data-raw', body.length > 4096 ? `'<${body.length} characters>'` : expandable(body));
  }
  return parts.join(' ');
}
