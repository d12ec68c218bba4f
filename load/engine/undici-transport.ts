// The engine's general path, on undici: https (with the profile's TLS
// material) and whatever else the socket transport leaves alone
// (transport.ts says which). undici's dispatch API with the raw handler
// interface: no response stream, no header parsing unless the answer is
// sampled, the body dropped unless a later request needs values from it.
import { Pool } from 'undici';
import type { FilledRequest } from '../scenarios/request.ts';
import { errorCodeOf, failure, type Answer } from './answer.ts';
import type { AnswerCallback, Send, Transport, TransportOptions } from './transport.ts';

export class UndiciTransport implements Transport {
  readonly kind = 'undici' as const;
  private readonly pool: Pool;
  private readonly basePath: string;
  private readonly timeoutMs: number;

  constructor(origin: URL, options: Pick<TransportOptions, 'tls' | 'timeoutMs' | 'maxConnections'>) {
    this.pool = new Pool(origin.origin, {
      connections: options.maxConnections,
      pipelining: 1,
      keepAliveTimeout: 10_000,
      connect: options.tls ? { ...options.tls } : undefined,
    });
    this.basePath = origin.pathname.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs;
  }

  prepare(request: FilledRequest, keepBody: boolean): Send {
    const path = this.basePath + request.pathAndQuery;
    return (done) => exchange(this.pool, path, request, this.timeoutMs, keepBody, done);
  }

  async close(): Promise<void> {
    if (!this.pool.destroyed) await this.pool.close().catch(() => this.pool.destroy());
  }

  destroy(): void {
    void this.pool.destroy();
  }
}

function exchange(pool: Pool, path: string, request: FilledRequest, timeoutMs: number, keepBody: boolean, done: AnswerCallback): void {
  let status = 0;
  let rawHeaders: Buffer[] | undefined;
  const chunks: Buffer[] | undefined = keepBody ? [] : undefined;
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
          }
          return true;
        },
        onData(chunk) {
          chunks?.push(chunk);
          return true;
        },
        onComplete() {
          settle({ status, rawHeaders, body: chunks ? Buffer.concat(chunks).toString('utf8') : undefined });
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
