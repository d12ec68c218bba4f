// The engine's fast path for http:// targets: requests serialised once
// (request-bytes.ts) and written on a pool of keep-alive connections
// (http1-connection.ts), one request per connection at a time. A request
// takes an idle connection or opens one; at the connection bound (by
// default the in-flight bound, one connection per request in flight as k6's
// VUs have) it waits for the next free one — its latency still counts from
// its due time. The most recently used idle connection is taken first, so a
// steady rate keeps a steady set warm; one timer, not one per request,
// enforces the time limit.
import { failure, type KeepBodyOf } from './answer.ts';
import { ABORTED, Http1Connection, TIMED_OUT, type ConnectionPool, type Endpoint } from './http1-connection.ts';
import { INVALID_REQUEST, requestBytes } from './request-bytes.ts';
import type { FilledRequest } from '../scenarios/request.ts';
import type { AnswerCallback, Send, Transport } from './transport.ts';

const READ_BUFFER_BYTES = 64 * 1024;

interface Waiting {
  bytes: Buffer;
  method: string;
  keepBody: boolean;
  done: AnswerCallback;
  since: number;
}

export class SocketTransport implements Transport, ConnectionPool {
  readonly kind = 'socket' as const;
  private readonly endpoint: Endpoint;
  private readonly host: string;
  private readonly basePath: string;
  private readonly readBuffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);
  private readonly idle: Http1Connection[] = [];
  private readonly open = new Set<Http1Connection>();
  /** Requests waiting for a connection, oldest first from `next`. */
  private readonly waiting: Waiting[] = [];
  private next = 0;
  private readonly sweeper: NodeJS.Timeout;
  private destroyed = false;

  constructor(
    origin: URL,
    private readonly timeoutMs: number,
    private readonly maxConnections: number,
    private readonly keep: { headersOf: (status: number) => boolean; bodyOf?: KeepBodyOf },
  ) {
    this.endpoint = { host: origin.hostname.replace(/^\[(.*)\]$/, '$1'), port: Number(origin.port || 80) };
    this.host = origin.host;
    this.basePath = origin.pathname.replace(/\/+$/, '');
    // Checked often enough that a timeout is noticed within a tenth of the limit (at least every 250 ms).
    this.sweeper = setInterval(() => this.sweep(), Math.min(250, Math.max(5, timeoutMs / 10)));
    this.sweeper.unref();
  }

  prepare(request: FilledRequest, keepBody: boolean): Send {
    let bytes: Buffer;
    try {
      bytes = requestBytes(request, this.basePath + request.pathAndQuery, this.host);
    } catch {
      // Not a valid HTTP/1.1 message (a line break in a value…): every send of it fails, as undici's would.
      const refused = failure(INVALID_REQUEST);
      return (done) => queueMicrotask(() => done(refused));
    }
    const method = request.method;
    return (done) => this.send(bytes, method, keepBody, done);
  }

  release(connection: Http1Connection): void {
    if (this.destroyed) return connection.abort(ABORTED);
    const waiting = this.dequeue();
    if (waiting) connection.send(waiting.bytes, waiting.method, waiting.keepBody, waiting.done);
    else this.idle.push(connection);
  }

  closed(connection: Http1Connection): void {
    this.open.delete(connection);
    // A request waiting for a connection takes a new one in place of the closed one.
    const waiting = this.destroyed ? undefined : this.dequeue();
    if (waiting) this.connect().send(waiting.bytes, waiting.method, waiting.keepBody, waiting.done);
  }

  async close(): Promise<void> {
    this.end();
  }

  destroy(): void {
    this.end();
  }

  private send(bytes: Buffer, method: string, keepBody: boolean, done: AnswerCallback): void {
    if (this.destroyed) return queueMicrotask(() => done(failure(ABORTED)));
    const connection = this.acquire();
    if (connection) connection.send(bytes, method, keepBody, done);
    else this.waiting.push({ bytes, method, keepBody, done, since: performance.now() });
  }

  /** An idle connection, a new one, or none at the connection bound. */
  private acquire(): Http1Connection | undefined {
    const now = performance.now();
    for (let connection = this.idle.pop(); connection; connection = this.idle.pop()) {
      if (!connection.alive) continue;
      if (now - connection.idleSince < connection.keepAliveMs) return connection;
      connection.abort(ABORTED); // idle too long: the server may be closing it right now
    }
    return this.open.size < this.maxConnections ? this.connect() : undefined;
  }

  private connect(): Http1Connection {
    const connection = new Http1Connection(this.endpoint, this.readBuffer, this.keep, this);
    this.open.add(connection);
    return connection;
  }

  private dequeue(): Waiting | undefined {
    if (this.next >= this.waiting.length) return undefined;
    const waiting = this.waiting[this.next]!;
    this.waiting[this.next++] = undefined as unknown as Waiting;
    // Taken entries are cut off when none is left, or when they are most of the array (a backlog that never drains).
    if (this.next === this.waiting.length) this.waiting.length = this.next = 0;
    else if (this.next >= 1024 && this.next * 2 >= this.waiting.length) {
      this.waiting.splice(0, this.next);
      this.next = 0;
    }
    return waiting;
  }

  /** Times out requests over the limit, sent or waiting, and closes idle connections the server may be about to close. */
  private sweep(): void {
    const now = performance.now();
    for (const connection of this.open) {
      if (connection.sentAt !== 0 && now - connection.sentAt > this.timeoutMs) connection.abort(TIMED_OUT);
    }
    while (this.next < this.waiting.length && now - this.waiting[this.next]!.since > this.timeoutMs) this.dequeue()!.done(failure(TIMED_OUT));
    let kept = 0;
    for (const connection of this.idle) {
      if (!connection.alive) continue;
      if (now - connection.idleSince < connection.keepAliveMs) this.idle[kept++] = connection;
      else connection.abort(ABORTED);
    }
    this.idle.length = kept;
  }

  /** Cuts every connection; a request still waiting is answered as aborted. */
  private end(): void {
    this.destroyed = true;
    clearInterval(this.sweeper);
    for (const connection of [...this.open]) connection.abort(ABORTED);
    this.idle.length = 0;
    for (let waiting = this.dequeue(); waiting; waiting = this.dequeue()) waiting.done(failure(ABORTED));
  }
}
