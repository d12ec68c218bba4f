// How the token endpoint refuses a request over its limits (spec 7, 8):
// 429 with Retry-After and RateLimit fields above the rate (other fields, or
// none, under the load variants: rate-limiter.ts), 413 with Connection: close
// above the body size — or, with a load fault active, the wrong answer the
// load probes must catch (rate-limit-429-html: an HTML page for the 429, which
// errors.error-bodies-are-json catches over the load stage's error answers).
// Legitimate variants of the body limit (reference/variants/load.ts):
//   token-body-limit-above-probe-range  the limit is 4 MiB, four times the probe's default largest body;
//   token-body-limit-drained            an oversize body is read to its end before the 413, and the
//                                       connection is kept open.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ReferenceContext } from '../context.ts';
import { sendError, sendPayloadTooLarge } from '../http-util.ts';
import type { RateLimiter } from './limiter.ts';

/** The token endpoint's body limit under the token-body-limit-above-probe-range variant. */
export const LARGE_TOKEN_BODY_LIMIT_BYTES = 4 * 1024 * 1024;
/** The most of an oversize body the token-body-limit-drained variant reads before it gives up and closes. */
const DRAIN_LIMIT_BYTES = 16 * 1024 * 1024;

/** Answers a token request the limiter refused. */
export function refuseOverRate(ctx: ReferenceContext, req: IncomingMessage, res: ServerResponse, bucket: RateLimiter): void {
  if (ctx.faults.has('token-rate-limit-503')) return sendError(res, 503, 'service_unavailable', 'try again later');
  if (ctx.faults.has('token-rate-limit-reset')) {
    req.socket.destroy();
    return;
  }
  const headers = ctx.faults.has('rate-limit-headers-malformed') ? malformedLimitHeaders() : bucket.limitHeaders('token');
  if (ctx.faults.has('rate-limit-429-html')) return sendHtml(res, 429, headers);
  sendError(res, 429, 'rate_limited', 'too many token requests', headers);
}

/** The page a gateway's default 429 shows (rate-limit-429-html): not the JSON every body must be (spec 1). */
function sendHtml(res: ServerResponse, status: number, headers: Record<string, string>): void {
  const page = `<!DOCTYPE html>\n<html><head><title>${status} Too Many Requests</title></head><body><h1>Too Many Requests</h1><p>Slow down.</p></body></html>\n`;
  res.writeHead(status, { ...headers, 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(page), 'cache-control': 'no-store' });
  res.end(page);
}

/** Retry-After that is no date nor seconds, and a RateLimit claiming requests remain on a 429. */
function malformedLimitHeaders(): Record<string, string> {
  return { 'retry-after': 'soon', 'ratelimit-policy': '"token";q=10;w=1', ratelimit: '"token";r=25;t=1' };
}

/** The body limit applied to this request. */
export function tokenBodyLimit(ctx: ReferenceContext, req: IncomingMessage): number {
  if (ctx.faults.has('no-token-body-limit')) return Number.MAX_SAFE_INTEGER;
  if (ctx.faults.has('token-body-limit-chunked-unchecked') && req.headers['content-length'] === undefined) return Number.MAX_SAFE_INTEGER;
  if (ctx.variants.has('token-body-limit-above-probe-range')) return LARGE_TOKEN_BODY_LIMIT_BYTES;
  return ctx.options.tokenBodyLimitBytes;
}

/** Answers a token request whose body is over the limit. */
export function refuseOversize(ctx: ReferenceContext, req: IncomingMessage, res: ServerResponse, limit: number): void {
  if (ctx.faults.has('token-body-limit-reset')) {
    req.socket.destroy();
    return;
  }
  if (ctx.variants.has('token-body-limit-drained')) return drainThenRefuse(req, res, limit);
  sendPayloadTooLarge(res, limit);
}

/**
 * Reads the rest of an oversize body, then answers 413 on a connection that
 * stays usable (RFC 9110 15.5.14 lets a server close it, not must). A body
 * that never ends gets no answer; one beyond DRAIN_LIMIT_BYTES is cut off.
 */
function drainThenRefuse(req: IncomingMessage, res: ServerResponse, limit: number): void {
  let drained = 0;
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_LIMIT_BYTES) req.socket.destroy();
  });
  req.once('end', () => sendPayloadTooLarge(res, limit, { keepAlive: true }));
  req.resume();
}
