// The 413 probe's raw sized exchanges as check evidence. They do not pass the
// HTTP client, so they are mapped here onto the one evidence builder
// (src/http/evidence.ts): the framing headers as sent, the padded body clipped.
import type { RecordedExchange, RecordedResponse } from '../../../src/http/exchange.ts';
import { buildEvidence } from '../../../src/http/evidence.ts';
import type { Redactor } from '../../../src/http/redact.ts';
import type { SizedExchange } from './run.ts';

/** The HTTP client's counter numbers the other exchanges: ids from here on cannot collide with them. */
const SIZED_EXCHANGE_IDS = 900_000_000;

/** Each exchange as evidence, numbered in the order given. */
export function sizedEvidence(exchanges: SizedExchange[], redactor: Redactor): RecordedExchange[] {
  return exchanges.map((exchange, i) => sizedExchangeEvidence(exchange, redactor, SIZED_EXCHANGE_IDS + i));
}

function sizedExchangeEvidence(exchange: SizedExchange, redactor: Redactor, id: number): RecordedExchange {
  const { step, response } = exchange;
  const headers: Record<string, string> = { ...exchange.requestHeaders, ...(step.framing === 'chunked' ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(step.sizeBytes) }) };
  if (step.framing === 'expect-100-continue') headers['expect'] = '100-continue';
  return buildEvidence(redactor, {
    id,
    label: `${step.purpose}: ${step.sizeBytes}-byte body, ${step.framing}`,
    startedAt: new Date(),
    durationMs: step.durationMs,
    method: exchange.method,
    url: exchange.url,
    headers,
    body: exchange.requestBody,
    // The size declared and probed, not the characters kept: a declared-only request sends less.
    bodyBytes: step.sizeBytes,
    bodyKind: 'structured',
    clip: 'padding',
    response: recordedResponse(response, redactor),
    error: response.errorCode ? { code: response.outcome === 'timeout' ? 'TIMEOUT' : 'CONNECTION_RESET', message: response.errorCode } : undefined,
  });
}

function recordedResponse(response: SizedExchange['response'], redactor: Redactor): RecordedResponse | undefined {
  if (response.status === undefined) return undefined;
  return {
    status: response.status,
    headers: redactor.redactHeaders(response.headers ?? {}),
    body: response.body && redactor.redactBody(response.body),
    bodyBytes: Buffer.byteLength(response.body ?? ''),
    truncated: false,
  };
}
