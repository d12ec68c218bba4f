// One request with a body of exact size on a fresh connection, framed by
// Content-Length, chunked, or Content-Length with Expect: 100-continue. The
// response is read while the body is still being written (a server may
// answer 413 early and close), and "closed without a status" is an outcome
// of its own: RFC 9110 lets a server close instead of, or after, a 413.
import http from 'node:http';
import https from 'node:https';
import type { TlsMaterial } from '../../../src/http/connection.ts';
import type { SizeOutcome } from '../../../src/results/load-model.ts';
import type { Framing } from '../../scenarios/body-size.ts';

export interface SizedRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: Buffer;
  framing: Framing;
  timeoutMs: number;
  /** Write only this many bytes of the body, then wait for an answer (a declared size the body never reaches). */
  sendBytes?: number;
  tls?: TlsMaterial;
}

export interface SizedResponse {
  outcome: SizeOutcome;
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  durationMs: number;
  bytesSent: number;
  /** The answer came before the whole body was written (an early 413). */
  beforeBodyComplete: boolean;
  /** The connection broke after the status was read (typical of a 413 that does not drain the body). */
  resetAfterResponse: boolean;
  errorCode?: string;
}

const CHUNK = 64 * 1024;
const CONTINUE_WAIT_MS = 1_000;
const BODY_KEEP = 16 * 1024;

export function classifyStatus(status: number): SizeOutcome {
  if (status === 413) return '413';
  if (status >= 500) return '5xx';
  if (status >= 400) return 'other-4xx';
  return 'accepted';
}

export function sendSized(request: SizedRequest): Promise<SizedResponse> {
  const started = performance.now();
  const headers = framedHeaders(request);
  const transport = request.url.protocol === 'https:' ? https : http;

  return new Promise<SizedResponse>((resolve) => {
    const req = transport.request(request.url, {
      method: request.method,
      headers,
      // A fresh connection per probe: a 413 that closes the connection must not spoil the next one.
      agent: false,
      ...(request.tls ?? {}),
    });
    new PendingSizedRequest(request, req, started, resolve).start();
  });
}

/** The request's headers with the framing's own: Content-Length or chunked, and Expect: 100-continue. */
function framedHeaders(request: SizedRequest): Record<string, string> {
  const headers: Record<string, string> = { ...request.headers };
  if (request.framing === 'chunked') headers['transfer-encoding'] = 'chunked';
  else headers['content-length'] = String(request.body.length);
  if (request.framing === 'expect-100-continue') headers['expect'] = '100-continue';
  return headers;
}

interface ResponseSoFar {
  status: number;
  headers: Record<string, string>;
  chunks: Buffer[];
  kept: number;
}

/** One request under way: the body written while the answer is read, settled once by the answer, an error or the timeout. */
class PendingSizedRequest {
  private bytesSent = 0;
  private bodyDone = false;
  private settled = false;
  private response: ResponseSoFar | undefined;
  private stopWriting = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly request: SizedRequest,
    private readonly req: http.ClientRequest,
    private readonly started: number,
    private readonly resolve: (response: SizedResponse) => void,
  ) {
    this.timer = setTimeout(() => {
      if (this.response) this.finish(classifyStatus(this.response.status), 'TIMEOUT_READING_BODY');
      else this.finish('timeout', 'TIMEOUT');
    }, request.timeoutMs);
    req.on('response', (res) => this.read(res));
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (this.response) this.finish(classifyStatus(this.response.status), error.code ?? 'ERROR');
      else this.finish('reset', error.code ?? 'ERROR');
    });
  }

  start(): void {
    const req = this.req;
    if (this.request.framing === 'expect-100-continue') {
      req.flushHeaders();
      // A server may answer at once (413 before any body byte) or say 100 Continue; after a while a client may send anyway (RFC 9110 10.1.1).
      const fallback = setTimeout(() => void this.write(), CONTINUE_WAIT_MS);
      req.once('continue', () => {
        clearTimeout(fallback);
        void this.write();
      });
      req.once('response', () => clearTimeout(fallback));
    } else {
      void this.write();
    }
  }

  private finish(outcome: SizeOutcome, errorCode?: string): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    const response = this.response;
    const body = response ? Buffer.concat(response.chunks).toString('utf8') : undefined;
    this.resolve({
      outcome,
      status: response?.status,
      headers: response?.headers,
      body,
      durationMs: Math.round((performance.now() - this.started) * 10) / 10,
      bytesSent: this.bytesSent,
      beforeBodyComplete: Boolean(response) && !this.bodyDone,
      resetAfterResponse: Boolean(response) && errorCode !== undefined,
      errorCode,
    });
    this.req.destroy();
  }

  /** The answer: writing stops, the first BODY_KEEP bytes of its body are kept. */
  private read(res: http.IncomingMessage): void {
    this.stopWriting = true;
    const flat: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v;
    const response: ResponseSoFar = { status: res.statusCode ?? 0, headers: flat, chunks: [], kept: 0 };
    this.response = response;
    res.on('data', (chunk: Buffer) => {
      if (response.kept < BODY_KEEP) {
        response.chunks.push(chunk.subarray(0, BODY_KEEP - response.kept));
        response.kept += chunk.length;
      }
    });
    res.on('end', () => this.finish(classifyStatus(response.status)));
    res.on('error', (error: NodeJS.ErrnoException) => this.finish(classifyStatus(response.status), error.code ?? 'ERROR'));
  }

  /** Writes the body (or its first sendBytes) in chunks, honouring back-pressure; ends the request only when the whole body went out. */
  private async write(): Promise<void> {
    const { req, request } = this;
    const limit = Math.min(request.body.length, request.sendBytes ?? request.body.length);
    for (let offset = 0; offset < limit && !this.stopWriting && !this.settled; offset += CHUNK) {
      const piece = request.body.subarray(offset, Math.min(limit, offset + CHUNK));
      const flushed = req.write(piece);
      this.bytesSent += piece.length;
      if (!flushed) await drainedOrClosed(req);
    }
    if (this.stopWriting || this.settled) return;
    if (limit === request.body.length) {
      this.bodyDone = true;
      req.end();
    }
  }
}

function drainedOrClosed(req: http.ClientRequest): Promise<void> {
  return new Promise<void>((resume) => {
    const done = () => {
      req.off('drain', done);
      req.off('close', done);
      resume();
    };
    req.on('drain', done);
    req.on('close', done);
  });
}
