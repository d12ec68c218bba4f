// How the token endpoint refuses a request over its limits (spec 7, 8):
// 429 with Retry-After and RateLimit fields above the rate, 413 with
// Connection: close above the body size — or, with a load fault active, the
// wrong answer the load probes must catch.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ReferenceContext } from '../context.ts';
import { sendError, sendPayloadTooLarge } from '../http-util.ts';
import type { TokenBucket } from './token-bucket.ts';

/** Answers a token request the bucket has no token for. */
export function refuseOverRate(ctx: ReferenceContext, req: IncomingMessage, res: ServerResponse, bucket: TokenBucket): void {
  if (ctx.faults.has('token-rate-limit-503')) return sendError(res, 503, 'service_unavailable', 'try again later');
  if (ctx.faults.has('token-rate-limit-reset')) {
    req.socket.destroy();
    return;
  }
  const headers = ctx.faults.has('rate-limit-headers-malformed') ? malformedLimitHeaders() : bucket.limitHeaders('token');
  sendError(res, 429, 'rate_limited', 'too many token requests', headers);
}

/** Retry-After that is no date nor seconds, and a RateLimit claiming requests remain on a 429. */
function malformedLimitHeaders(): Record<string, string> {
  return { 'retry-after': 'soon', 'ratelimit-policy': '"token";q=10;w=1', ratelimit: '"token";r=25;t=1' };
}

/** The body limit applied to this request. */
export function tokenBodyLimit(ctx: ReferenceContext, req: IncomingMessage): number {
  if (ctx.faults.has('no-token-body-limit')) return Number.MAX_SAFE_INTEGER;
  if (ctx.faults.has('token-body-limit-chunked-unchecked') && req.headers['content-length'] === undefined) return Number.MAX_SAFE_INTEGER;
  return ctx.options.tokenBodyLimitBytes;
}

/** Answers a token request whose body is over the limit. */
export function refuseOversize(ctx: ReferenceContext, req: IncomingMessage, res: ServerResponse, limit: number): void {
  if (ctx.faults.has('token-body-limit-reset')) {
    req.socket.destroy();
    return;
  }
  sendPayloadTooLarge(res, limit);
}
