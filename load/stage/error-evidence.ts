// The error answers the load stage received, as check evidence: one exchange
// of each kind (status 400 or above, by status and Content-Type), so the
// cross-cutting errors.error-bodies-are-json holds them to spec 1's "All
// request and response bodies are JSON (application/json)" like every other
// check's (load/stage/crosscut.ts) — the 429s and 413s, not a gateway's 502,
// 504 or unlisted 503, which it never judges (src/spec/answer-class.ts). The engine keeps the samples
// (load/engine/error-samples.ts); the 413 probe keeps every exchange.
import { buildEvidence } from '../../src/http/evidence.ts';
import { clipForEvidence, type RecordedExchange } from '../../src/http/exchange.ts';
import type { Redactor } from '../../src/http/redact.ts';
import type { ErrorSample } from '../result/normalized.ts';

/** The HTTP client's counter numbers the other exchanges (and the 413 probe's start at 900 000 000): no collision. */
const ERROR_SAMPLE_IDS = 800_000_000;

/** The kind of an error answer: its status and Content-Type; undefined for an answer below 400 or none. */
export function errorKind(status: number | undefined, headers: Record<string, string> | undefined): string | undefined {
  if (status === undefined || status < 400) return undefined;
  const contentType = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  return `${status} ${(contentType ?? '').trim().toLowerCase()}`;
}

/** The first item of each error kind that `kept` does not show already (kept: items already in evidence). */
export function oneOfEachErrorKind<T>(items: readonly T[], answerOf: (item: T) => { status?: number; headers?: Record<string, string> }, kept: readonly T[] = []): T[] {
  const kindOf = (item: T) => errorKind(answerOf(item).status, answerOf(item).headers);
  const seen = new Set(kept.map(kindOf).filter((k) => k !== undefined));
  const out: T[] = [];
  for (const item of items) {
    const kind = kindOf(item);
    if (kind === undefined || seen.has(kind)) continue;
    seen.add(kind);
    out.push(item);
  }
  return out;
}

export interface SampleTarget {
  baseUrl: string;
  runHeaders?: Record<string, string>;
  redactor: Redactor;
}

/** The engine's error samples of one staircase as evidence, redacted like every exchange (src/http/evidence.ts). */
export function errorSampleEvidence(samples: readonly ErrorSample[] | undefined, operation: string, target: SampleTarget): RecordedExchange[] {
  const { redactor } = target;
  return (samples ?? []).map((s, i) =>
    buildEvidence(redactor, {
      id: ERROR_SAMPLE_IDS + i,
      label: `${operation} staircase, ${s.phase}: the first ${s.status} answer${s.headers['content-type'] ? ` (${s.headers['content-type']})` : ''} of its kind`,
      startedAt: new Date(s.startedAt),
      durationMs: s.durationMs,
      method: s.request.method,
      url: target.baseUrl.replace(/\/+$/, '') + s.request.pathAndQuery,
      headers: { ...s.request.headers, ...target.runHeaders },
      body: s.request.body,
      bodyBytes: Buffer.byteLength(s.request.body ?? ''),
      bodyKind: 'structured',
      response: {
        status: s.status,
        headers: redactor.redactHeaders(s.headers),
        body: s.body === undefined || s.body === '' ? undefined : clipForEvidence(redactor.redactBody(s.body)),
        bodyBytes: s.bodyBytes,
        truncated: s.truncated,
      },
    }),
  );
}
