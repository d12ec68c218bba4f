// POST /v1/oauth/token (spec 4.1): both grant types, single-use refresh
// tokens, 422 for parameter errors, 413 above the body limit, 429 above the
// rate limit. Every check-then-invalidate step is synchronous so concurrent
// refreshes of one token cannot both succeed (token/grants.ts answers the
// grants; this route reads the body).
//
// Choices where the spec says "not shown", documented for partners:
// - a JSON body only (1: bodies are JSON); other content types are a 422;
// - a refresh token is bound to the client it was issued to: presented with
//   another client's client_id it is refused (422) and stays unused;
// - a refresh answers a new refresh token next to the renewed access token;
// - reusing a used refresh token is refused and revokes nothing else;
// - expires_in is in seconds; tokens are EdDSA JWTs verifiable with the
//   published JWK Set (GET /.well-known/jwks.json).
//
// Legitimate variants (reference/variants/auth.ts), each a choice the spec leaves open:
//   refresh-omits-refresh-token  a refresh answers no refresh_token (4.1 rule 2 names only the access token);
//   refresh-reuse-revokes-family reusing a used refresh token also revokes the refresh tokens issued from it;
//   token-form-body-accepted     application/x-www-form-urlencoded bodies are accepted too;
//   refresh-token-internal-key   refresh tokens are signed with an unpublished HS256 key;
//   expires-in-milliseconds      expires_in counts milliseconds (the profile declares it);
//   jwks-requires-bearer         GET /.well-known/jwks.json answers 401 without a valid bearer
//                                access token, as the deployed API's JWKS operation (REAL-API-NOTES).
// The rate limiter and the body limit follow the load variants (reference/variants/load.ts):
// limits/rate-limiter.ts and limits/token-limits.ts say how.
import type { IncomingMessage } from 'node:http';
import type { ReferenceContext } from '../context.ts';
import { authenticate } from '../context.ts';
import { isJsonContentType, parseJson, readBody, sendError, sendJson } from '../http-util.ts';
import { rateLimiterFor } from '../limits/rate-limiter.ts';
import { refuseOverRate, refuseOversize, tokenBodyLimit } from '../limits/token-limits.ts';
import type { Router, RouteRequest } from '../router.ts';
import { parameterError, TokenGrants } from '../token/grants.ts';
import { holdAdmittedAnswer } from '../conditions/slow-processing.ts';

export const TOKEN_ROUTE = '/v1/oauth/token';
export const TOKEN_JWKS_ROUTE = '/.well-known/jwks.json';

function isFormContentType(req: IncomingMessage): boolean {
  return req.headers['content-type']?.split(';')[0]?.trim().toLowerCase() === 'application/x-www-form-urlencoded';
}

export function registerTokenRoutes(router: Router, ctx: ReferenceContext): void {
  // A token bucket by default; its algorithm and 429 headers follow the load variants (limits/rate-limiter.ts).
  const bucket = rateLimiterFor(ctx, 'token');
  const grants = new TokenGrants(ctx);
  const variant = (name: string) => ctx.variants.has(name);

  router.add('POST', TOKEN_ROUTE, async (req: RouteRequest, res) => {
    if (!bucket.take() && !ctx.faults.has('no-token-rate-limit')) return refuseOverRate(ctx, req.raw, res, bucket);
    // slow-processing: what the limiter let through answers late (conditions/slow-processing.ts).
    holdAdmittedAnswer(ctx.conditions, 'token', res);
    if (ctx.faults.has('token-endpoint-requires-bearer') && !req.raw.headers.authorization) {
      return sendError(res, 401, 'unauthorized', 'bearer credential required', { 'www-authenticate': 'Bearer' });
    }
    const read = await readBody(req.raw, tokenBodyLimit(ctx, req.raw));
    if (read.kind === 'too-large') return refuseOversize(ctx, req.raw, res, read.limit);
    if (read.kind === 'aborted') return;
    if (isFormContentType(req.raw) && variant('token-form-body-accepted')) return grants.dispatchGrant(res, Object.fromEntries(new URLSearchParams(read.text)));
    if (!isJsonContentType(req.raw)) return parameterError(ctx, res, 'Content-Type must be application/json');
    const parsed = parseJson(read.text);
    if (!parsed.ok) {
      if (ctx.faults.has('malformed-json-500')) return sendError(res, 500, 'internal_error', 'unexpected token in JSON');
      return parameterError(ctx, res, `body is not valid JSON: ${parsed.message}`);
    }
    const body = parsed.value;
    if (!body || typeof body !== 'object' || Array.isArray(body)) return parameterError(ctx, res, 'body must be a JSON object');
    return grants.dispatchGrant(res, body as Record<string, unknown>);
  });

  router.add('GET', TOKEN_JWKS_ROUTE, async (req, res) => {
    if (variant('jwks-requires-bearer') && !(await authenticate(ctx, req, res))) return;
    sendJson(res, 200, ctx.keys.jwks());
  });
}
