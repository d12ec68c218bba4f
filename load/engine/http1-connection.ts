// One keep-alive connection of the socket transport: a plain net.Socket,
// one request at a time (no pipelining), answers read by http1-reader.ts
// straight from the socket's read buffer (net.connect's onread: no stream
// chunks, no 'data' events). After an answer it goes back to its pool, or is
// closed when the server said Connection: close or the answer could only end
// with the connection. Every failure — refused, reset, closed before the
// answer was complete, a malformed answer, a timeout — calls the waiting
// request back with status 0 and a code.
import net from 'node:net';
import { failure, type Answer, type KeepBodyOf } from './answer.ts';
import { ResponseReader } from './http1-reader.ts';
import type { AnswerCallback } from './transport.ts';

/** Failure codes of this transport besides the socket's own (ECONNREFUSED, ECONNRESET, …). */
export const CLOSED = 'SOCKET_CLOSED';
export const TIMED_OUT = 'ETIMEDOUT';
export const ABORTED = 'ABORTED';

/** Reuse of an idle connection when the server gave no Keep-Alive hint (undici's default too). */
const DEFAULT_KEEP_ALIVE_MS = 4_000;
/** Margin under the server's hint: a request must not meet the server closing the connection. */
const KEEP_ALIVE_MARGIN_MS = 1_000;

export interface ConnectionPool {
  /** The connection is free for the next request. */
  release(connection: Http1Connection): void;
  /** The connection is gone. */
  closed(connection: Http1Connection): void;
}

export interface Endpoint {
  host: string;
  port: number;
}

export class Http1Connection {
  /** performance.now() when the waiting request was written; 0 while idle. */
  sentAt = 0;
  /** performance.now() when it was last released. */
  idleSince = 0;
  alive = true;
  private waiting: AnswerCallback | undefined;
  private socketError: string | undefined;
  private readonly socket: net.Socket;
  private readonly reader: ResponseReader;

  /** readBuffer: where the socket reads into, shared by a transport's connections (each read is consumed before the next). */
  constructor(endpoint: Endpoint, readBuffer: Buffer, keep: { headersOf: (status: number) => boolean; bodyOf?: KeepBodyOf }, private readonly pool: ConnectionPool) {
    this.reader = new ResponseReader({ answer: (answer, keepAlive) => this.answered(answer, keepAlive), error: (code) => this.abort(code) }, keep.headersOf, keep.bodyOf);
    this.socket = net.connect({
      host: endpoint.host,
      port: endpoint.port,
      noDelay: true,
      onread: {
        buffer: readBuffer,
        callback: (bytes: number, buffer: Buffer) => {
          this.reader.feed(buffer, bytes);
          return true;
        },
      },
    });
    this.socket.on('error', (error: NodeJS.ErrnoException) => {
      this.socketError ??= error.code ?? 'ERROR';
      this.alive = false;
    });
    this.socket.on('close', () => this.closed());
  }

  /** How long it may stay idle and still be reused: the server's Keep-Alive hint less a margin, else 4 s. */
  get keepAliveMs(): number {
    const hint = this.reader.keepAliveHintSec;
    return hint === undefined ? DEFAULT_KEEP_ALIVE_MS : hint * 1000 - KEEP_ALIVE_MARGIN_MS;
  }

  send(bytes: Buffer, method: string, keepBody: boolean, done: AnswerCallback): void {
    this.waiting = done;
    this.sentAt = performance.now();
    this.reader.expect(method, keepBody);
    this.socket.write(bytes);
  }

  /** Ends the connection; a waiting request is answered with a failure under code. */
  abort(code: string): void {
    this.alive = false;
    this.socket.destroy();
    this.deliver({ status: 0, errorCode: code });
  }

  private answered(answer: Answer, keepAlive: boolean): void {
    if (keepAlive && this.keepAliveMs > 0) {
      this.sentAt = 0;
      this.idleSince = performance.now();
      const done = this.waiting;
      this.waiting = undefined;
      this.pool.release(this);
      done?.(answer);
    } else {
      this.alive = false;
      this.socket.destroy();
      this.deliver(answer);
    }
  }

  private closed(): void {
    this.alive = false;
    this.pool.closed(this);
    if (!this.waiting) return;
    // A body that runs until the close is complete now (the reader delivers it); anything else was cut short.
    if (this.reader.close() !== 'complete') this.deliver(failure(this.socketError ?? CLOSED));
  }

  private deliver(answer: Answer): void {
    const done = this.waiting;
    this.waiting = undefined;
    this.sentAt = 0;
    done?.(answer);
  }
}
