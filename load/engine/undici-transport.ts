// The engine's general path, on undici: https (with the profile's TLS
// material) and whatever else the socket transport leaves alone
// (open-transport.ts says which). undici's dispatch API with the raw handler
// interface: no response stream, no header parsing unless the answer is
// sampled, the body dropped unless a later request needs values from it or
// the answer is kept as a sample of its kind of error answer.
import { Pool } from 'undici';
import type { FilledRequest } from '../scenarios/request.ts';
import { errorCodeOf, failure, SAMPLE_BODY_LIMIT, type Answer, type KeepBodyOf } from './answer.ts';
import type { AnswerCallback, Send, Transport, TransportOptions } from './transport.ts';

export class UndiciTransport implements Transport {
  readonly kind = 'undici' as const;
  private readonly pool: Pool;
  private readonly basePath: string;
  private readonly timeoutMs: number;
  private readonly keepBodyOf: KeepBodyOf | undefined;

  constructor(origin: URL, options: Pick<TransportOptions, 'tls' | 'timeoutMs' | 'maxConnections' | 'keepBodyOf'>) {
    this.pool = new Pool(origin.origin, {
      connections: options.maxConnections,
      pipelining: 1,
      keepAliveTimeout: 10_000,
      connect: options.tls ? { ...options.tls } : undefined,
    });
    this.basePath = origin.pathname.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs;
    this.keepBodyOf = options.keepBodyOf;
  }

  prepare(request: FilledRequest, keepBody: boolean): Send {
    const path = this.basePath + request.pathAndQuery;
    return (done) => exchange(this.pool, path, request, { timeoutMs: this.timeoutMs, keepBody, keepBodyOf: this.keepBodyOf }, done);
  }

  async close(): Promise<void> {
    if (!this.pool.destroyed) await this.pool.close().catch(() => this.pool.destroy());
  }

  destroy(): void {
    void this.pool.destroy();
  }
}

/** Content-Type among undici's raw header names and values (alternating). */
function contentTypeOf(raw: Buffer[]): string | undefined {
  for (let i = 0; i + 1 < raw.length; i += 2) if (raw[i]!.toString('latin1').toLowerCase() === 'content-type') return raw[i + 1]!.toString('latin1');
  return undefined;
}

interface Keep {
  timeoutMs: number;
  keepBody: boolean;
  keepBodyOf: KeepBodyOf | undefined;
}

function exchange(pool: Pool, path: string, request: FilledRequest, { timeoutMs, keepBody, keepBodyOf }: Keep, done: AnswerCallback): void {
  let status = 0;
  let rawHeaders: Buffer[] | undefined;
  let chunks: Buffer[] | undefined = keepBody ? [] : undefined;
  let sampled = false;
  let kept = 0;
  let cut = false;
  let settled = false;
  const settle = (answer: Answer) => {
    if (settled) return;
    settled = true;
    done(answer);
  };
  try {
    pool.dispatch(
      { path, method: request.method, headers: request.headers, body: request.body ?? null, headersTimeout: timeoutMs, bodyTimeout: timeoutMs },
      {
        onConnect() {},
        onHeaders(statusCode, headers) {
          // 1xx interim answers come first and are not the status.
          if (statusCode >= 200) {
            status = statusCode;
            rawHeaders = headers;
            sampled = statusCode >= 400 && keepBodyOf !== undefined && keepBodyOf(statusCode, contentTypeOf(headers));
            if (sampled) chunks ??= [];
          }
          return true;
        },
        onData(chunk) {
          if (!chunks) return true;
          // A sample keeps at most SAMPLE_BODY_LIMIT bytes; a body for extraction is kept whole.
          const room = sampled && !keepBody ? SAMPLE_BODY_LIMIT - kept : chunk.length;
          if (room < chunk.length) cut = true;
          if (room > 0) chunks.push(room < chunk.length ? chunk.subarray(0, room) : chunk);
          kept += Math.min(room, chunk.length);
          return true;
        },
        onComplete() {
          const body = chunks ? Buffer.concat(chunks).toString('utf8') : undefined;
          settle({ status, rawHeaders, body, ...(sampled ? { sampled: true, ...(cut ? { bodyCut: true } : {}) } : {}) });
        },
        onError(error) {
          settle({ status: 0, rawHeaders, errorCode: errorCodeOf(error) });
        },
      },
    );
  } catch (error) {
    // Thrown synchronously (an invalid header, a destroyed pool): answered on a later tick, as every other answer is.
    const answer = failure(errorCodeOf(error));
    queueMicrotask(() => settle(answer));
  }
}
