// One request with a body of exact size on a fresh connection, framed by
// Content-Length, chunked, or Content-Length with Expect: 100-continue. The
// response is read while the body is still being written (a server may
// answer 413 early and close), and "closed without a status" is an outcome
// of its own: RFC 9110 lets a server close instead of, or after, a 413.
import http from 'node:http';
import https from 'node:https';
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
  tls?: { ca?: Buffer; cert?: Buffer; key?: Buffer; rejectUnauthorized?: boolean };
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
  const headers: Record<string, string> = { ...request.headers };
  if (request.framing === 'chunked') headers['transfer-encoding'] = 'chunked';
  else headers['content-length'] = String(request.body.length);
  if (request.framing === 'expect-100-continue') headers['expect'] = '100-continue';
  const transport = request.url.protocol === 'https:' ? https : http;

  return new Promise<SizedResponse>((resolve) => {
    let bytesSent = 0;
    let bodyDone = false;
    let settled = false;
    let response: { status: number; headers: Record<string, string>; chunks: Buffer[]; kept: number } | undefined;
    let stopWriting = false;

    const req = transport.request(request.url, {
      method: request.method,
      headers,
      // A fresh connection per probe: a 413 that closes the connection must not spoil the next one.
      agent: false,
      ...(request.tls ?? {}),
    });

    const finish = (outcome: SizeOutcome, errorCode?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const body = response ? Buffer.concat(response.chunks).toString('utf8') : undefined;
      resolve({
        outcome,
        status: response?.status,
        headers: response?.headers,
        body,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
        bytesSent,
        beforeBodyComplete: Boolean(response) && !bodyDone,
        resetAfterResponse: Boolean(response) && errorCode !== undefined,
        errorCode,
      });
      req.destroy();
    };

    const timer = setTimeout(() => {
      if (response) finish(classifyStatus(response.status), 'TIMEOUT_READING_BODY');
      else finish('timeout', 'TIMEOUT');
    }, request.timeoutMs);

    req.on('response', (res) => {
      stopWriting = true;
      const flat: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v;
      response = { status: res.statusCode ?? 0, headers: flat, chunks: [], kept: 0 };
      res.on('data', (chunk: Buffer) => {
        if (response!.kept < BODY_KEEP) {
          response!.chunks.push(chunk.subarray(0, BODY_KEEP - response!.kept));
          response!.kept += chunk.length;
        }
      });
      res.on('end', () => finish(classifyStatus(response!.status)));
      res.on('error', (error: NodeJS.ErrnoException) => finish(classifyStatus(response!.status), error.code ?? 'ERROR'));
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (response) finish(classifyStatus(response.status), error.code ?? 'ERROR');
      else finish('reset', error.code ?? 'ERROR');
    });

    const limit = Math.min(request.body.length, request.sendBytes ?? request.body.length);
    const write = async () => {
      for (let offset = 0; offset < limit && !stopWriting && !settled; offset += CHUNK) {
        const piece = request.body.subarray(offset, Math.min(limit, offset + CHUNK));
        const flushed = req.write(piece);
        bytesSent += piece.length;
        if (!flushed) {
          await new Promise<void>((resume) => {
            const done = () => {
              req.off('drain', done);
              req.off('close', done);
              resume();
            };
            req.on('drain', done);
            req.on('close', done);
          });
        }
      }
      if (stopWriting || settled) return;
      if (limit === request.body.length) {
        bodyDone = true;
        req.end();
      }
    };

    if (request.framing === 'expect-100-continue') {
      req.flushHeaders();
      // A server may answer at once (413 before any body byte) or say 100 Continue; after a while a client may send anyway (RFC 9110 10.1.1).
      const fallback = setTimeout(() => void write(), CONTINUE_WAIT_MS);
      req.once('continue', () => {
        clearTimeout(fallback);
        void write();
      });
      req.once('response', () => clearTimeout(fallback));
    } else {
      void write();
    }
  });
}
