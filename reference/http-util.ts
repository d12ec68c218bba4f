// Small, strict HTTP helpers of the reference: JSON in and out, a body-size
// limit decided from Content-Length before reading and enforced while
// streaming, and one way to answer an error. How a JSON answer is labelled
// and shaped under the common variants, the error body's shape included,
// lives in response-variants.ts.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { shapeError, shapeJson, type ShapedAnswer } from './response-variants.ts';

function writeAnswer(res: ServerResponse, status: number, answer: ShapedAnswer, headers: Record<string, string>): void {
  res.writeHead(status, {
    ...answer.headers,
    'content-length': answer.text === undefined ? 0 : Buffer.byteLength(answer.text),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(answer.text);
}

/** A JSON answer; its media type and any extra members follow the request's common variants (response-variants.ts). */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  writeAnswer(res, status, shapeJson(body), headers);
}

/** An error answer: the ErrorBody shape (response-variants.ts) by default, another shape (or none) under a common variant. */
export function sendError(res: ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}): void {
  writeAnswer(res, status, shapeError(status, code, message), headers);
}

export type BodyResult =
  | { kind: 'ok'; text: string; bytes: number }
  | { kind: 'too-large'; limit: number; declared?: number }
  | { kind: 'aborted' };

/**
 * Reads a request body of at most `limit` bytes. A declared Content-Length
 * over the limit is refused before a byte is read; a chunked body is counted
 * while it streams and refused the moment it passes the limit.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  const declared = req.headers['content-length'] === undefined ? undefined : Number(req.headers['content-length']);
  if (declared !== undefined && declared > limit) return Promise.resolve({ kind: 'too-large', limit, declared });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    let settled = false;
    const settle = (result: BodyResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      bytes += chunk.length;
      if (bytes > limit) {
        req.pause();
        settle({ kind: 'too-large', limit });
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => settle({ kind: 'ok', text: Buffer.concat(chunks).toString('utf8'), bytes }));
    req.on('error', () => settle({ kind: 'aborted' }));
    req.on('close', () => settle({ kind: 'aborted' }));
  });
}

/**
 * Answers 413 and closes the connection: the rest of an oversize body is not
 * read, so the connection cannot be reused (RFC 9110, 15.5.14). `keepAlive`
 * when the caller has read the whole body first (token-body-limit-drained).
 */
export function sendPayloadTooLarge(res: ServerResponse, limit: number, options: { keepAlive?: boolean } = {}): void {
  sendError(res, 413, 'payload_too_large', `request body exceeds ${limit} bytes`, options.keepAlive ? {} : { connection: 'close' });
}

export function isJsonContentType(req: IncomingMessage): boolean {
  const type = req.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  return type === 'application/json';
}

export type JsonParse = { ok: true; value: unknown } | { ok: false; message: string };

export function parseJson(text: string): JsonParse {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
}
