// One sample exchange of each kind of error answer (status 400 or above, by
// status and Content-Type) a run received: its request, status, header
// fields and body. The transports ask `wants` when an error answer's head is
// read, so only a new kind's body is kept (error answers are most of a
// saturated staircase: keeping every body would cost the hot path).
import type { Variables } from '../../src/template.ts';
import type { ErrorSample } from '../result/normalized.ts';
import { fillRequest } from '../scenarios/request.ts';
import type { RequestTemplate } from '../scenarios/types.ts';
import { headersOf, type Answer } from './answer.ts';

/** Kinds kept at most: a target answering ever new kinds must not fill the result. */
const MAX_KINDS = 12;

const kindOf = (status: number, contentType: string | undefined) => `${status} ${(contentType ?? '').trim().toLowerCase()}`;

export class ErrorSampler {
  readonly samples: ErrorSample[] = [];
  private readonly kinds = new Set<string>();

  /** Keep this answer's head and body? Only for a kind not sampled yet. */
  readonly wants = (status: number, contentType: string | undefined): boolean =>
    status >= 400 && this.kinds.size < MAX_KINDS && !this.kinds.has(kindOf(status, contentType));

  /** An answer the transport kept (Answer.sampled) becomes the sample of its kind, unless one came first. */
  offer(phase: string, answer: Answer, request: { template: RequestTemplate; values: Variables }, startMs: number, endMs: number): void {
    if (!answer.sampled) return;
    const headers = headersOf(answer);
    const kind = kindOf(answer.status, headers['content-type']);
    if (this.kinds.has(kind) || this.kinds.size >= MAX_KINDS) return;
    this.kinds.add(kind);
    const filled = fillRequest(request.template, request.values);
    const declared = Number(headers['content-length']);
    const received = Buffer.byteLength(answer.body ?? '');
    this.samples.push({
      phase,
      // startMs and endMs are on performance.now(): the wall-clock start is found from now.
      startedAt: new Date(Date.now() - (performance.now() - startMs)).toISOString(),
      durationMs: Math.round((endMs - startMs) * 10) / 10,
      request: { method: filled.method, pathAndQuery: filled.pathAndQuery, headers: filled.headers, ...(filled.body !== undefined ? { body: filled.body } : {}) },
      status: answer.status,
      headers,
      ...(answer.body !== undefined ? { body: answer.body } : {}),
      bodyBytes: Number.isFinite(declared) && headers['content-length'] !== undefined ? declared : received,
      truncated: Boolean(answer.bodyCut),
    });
  }
}
