// POST /v1/oauth/token (spec 4.1): both grant types, single-use refresh
// tokens, 422 for parameter errors, 413 above the body limit, 429 above the
// rate limit. Every check-then-invalidate step is synchronous so concurrent
// refreshes of one token cannot both succeed.
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
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ReferenceContext } from '../context.ts';
import { authenticate } from '../context.ts';
import { isJsonContentType, parseJson, readBody, sendError, sendJson } from '../http-util.ts';
import { rateLimiterFor } from '../limits/rate-limiter.ts';
import { refuseOverRate, refuseOversize, tokenBodyLimit } from '../limits/token-limits.ts';
import type { Router, RouteRequest } from '../router.ts';

export const TOKEN_ROUTE = '/v1/oauth/token';
export const TOKEN_JWKS_ROUTE = '/.well-known/jwks.json';

/** What one 200 of the token endpoint hands out, and for whom. */
interface Issuance {
  clientId: string;
  grant: 'client_credentials' | 'refresh_token';
  /** The refresh-reissues-old-access-token fault hands this out again instead of a new access token. */
  previousAccessToken?: string;
  /** The refresh token this refresh exchanged, whose family the new one joins. */
  parentJti?: string;
}

function isFormContentType(req: IncomingMessage): boolean {
  return req.headers['content-type']?.split(';')[0]?.trim().toLowerCase() === 'application/x-www-form-urlencoded';
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export function registerTokenRoutes(router: Router, ctx: ReferenceContext): void {
  // A token bucket by default; its algorithm and 429 headers follow the load variants (limits/rate-limiter.ts).
  const bucket = rateLimiterFor(ctx, 'token');
  /** Refresh-token jti → it has been used. */
  const usedRefreshTokens = new Set<string>();
  /** Refresh-token jti → the access token issued with it (for the refresh-reissues-old-access-token fault). */
  const accessTokenOfRefresh = new Map<string, string>();
  /** Refresh-token jti → the jti of the refresh token its refresh issued (refresh-reuse-revokes-family). */
  const successorOf = new Map<string, string>();
  /** Refresh-token jti → revoked because a token before it in its family was reused. */
  const revokedRefreshTokens = new Set<string>();
  const variant = (name: string) => ctx.variants.has(name);

  const parameterError = (res: ServerResponse, message: string) =>
    sendError(res, ctx.faults.has('parameter-error-400') ? 400 : 422, 'parameter_error', message);

  const present = (token: string): string => {
    if (!ctx.faults.has('opaque-tokens')) return token;
    const opaque = randomBytes(24).toString('hex');
    ctx.opaqueTokens.set(opaque, token);
    return opaque;
  };

  async function signAccessToken(clientId: string, grant: Issuance['grant']): Promise<string> {
    // The fault's access token carries an issuer the reference does not accept, so it never opens the API.
    const unrecognised = grant === 'refresh_token' && ctx.faults.has('refreshed-access-token-rejected');
    return ctx.keys.sign('access', clientId, ctx.options.accessTokenTtlSeconds, undefined, unrecognised ? { issuer: `${ctx.keys.issuer}/unrecognised` } : {});
  }

  async function signRefreshToken(clientId: string, accessToken: string, parentJti?: string): Promise<string> {
    const jti = crypto.randomUUID();
    const key = variant('refresh-token-internal-key') ? 'internal' : 'published';
    const refreshToken = await ctx.keys.sign('refresh', clientId, ctx.options.refreshTokenTtlSeconds, jti, { key });
    accessTokenOfRefresh.set(jti, accessToken);
    if (parentJti) successorOf.set(parentJti, jti);
    return refreshToken;
  }

  function expiresIn(): number | string {
    const seconds = ctx.options.accessTokenTtlSeconds;
    if (ctx.faults.has('expires-in-as-string')) return String(seconds);
    return seconds * (variant('expires-in-milliseconds') ? 1000 : 1) * (ctx.faults.has('expires-in-mismatch') ? 3 : 1);
  }

  async function issue(res: ServerResponse, { clientId, grant, previousAccessToken, parentJti }: Issuance): Promise<void> {
    const accessToken = previousAccessToken ?? (await signAccessToken(clientId, grant));
    const withRefreshToken = grant === 'client_credentials' || !variant('refresh-omits-refresh-token');
    const refreshToken = withRefreshToken ? await signRefreshToken(clientId, accessToken, parentJti) : undefined;
    const shownAccess = present(accessToken);
    const shownRefresh = refreshToken === undefined ? undefined : present(refreshToken);
    // Opt-in audit of every credential handed out, so leak tests can grep artifacts for them.
    if (ctx.options.issuedTokenLog) appendFileSync(ctx.options.issuedTokenLog, [shownAccess, shownRefresh].filter(Boolean).map((t) => `${t}\n`).join(''));
    const body = {
      expires_in: expiresIn(),
      access_token: shownAccess,
      ...(shownRefresh === undefined ? {} : { refresh_token: ctx.faults.has('cc-same-token-twice') && grant === 'client_credentials' ? shownAccess : shownRefresh }),
    };
    if (ctx.faults.has('token-content-type-text')) {
      res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
      return;
    }
    sendJson(res, 200, body);
  }

  /** The refresh tokens issued, directly or not, from this one: revoked when it is reused (refresh-reuse-revokes-family). */
  function revokeDescendants(jti: string): void {
    for (let next = successorOf.get(jti); next !== undefined; next = successorOf.get(next)) revokedRefreshTokens.add(next);
  }

  async function clientCredentials(res: ServerResponse, body: Record<string, unknown>): Promise<void> {
    const { client_id: clientId, client_secret: clientSecret } = body;
    if (typeof clientId !== 'string' || !clientId) return parameterError(res, 'client_id is required');
    if (typeof clientSecret !== 'string' && !ctx.faults.has('client-secret-unchecked')) {
      return parameterError(res, 'client_secret is required for client_credentials');
    }
    // The own-licence client (spec 4.2 rule 7) shares the main client's secret; its tokens carry its own client_id.
    const knownClient = safeEqual(clientId, ctx.options.clientId) || safeEqual(clientId, ctx.options.ownLicenceClientId);
    const secretOk = ctx.faults.has('client-secret-unchecked') || safeEqual(String(clientSecret), ctx.options.clientSecret);
    if (!knownClient || !secretOk) return parameterError(res, 'invalid client credentials');
    await issue(res, { clientId, grant: 'client_credentials' });
  }

  async function refresh(res: ServerResponse, body: Record<string, unknown>): Promise<void> {
    const { client_id: clientId, refresh_token: presented } = body;
    const clientIdOptional = ctx.faults.has('refresh-without-client-id');
    if ((typeof clientId !== 'string' || !clientId) && !clientIdOptional) return parameterError(res, 'client_id is required');
    if (typeof presented !== 'string' || !presented) return parameterError(res, 'refresh_token is required');
    const jwt = ctx.opaqueTokens.get(presented) ?? presented;
    const claims = await ctx.keys.verify(jwt);
    if (!claims || claims.token_use !== 'refresh') {
      if (ctx.faults.has('refresh-accepts-any-token')) return issue(res, { clientId: ctx.options.clientId, grant: 'refresh_token' });
      return parameterError(res, 'refresh_token is not a valid refresh token');
    }
    const otherClient = typeof clientId === 'string' && clientId !== claims.client_id;
    if (otherClient && !ctx.faults.has('refresh-client-unbound')) return parameterError(res, 'refresh_token was not issued to this client');
    if (revokedRefreshTokens.has(claims.jti)) return parameterError(res, 'refresh_token was revoked: a token before it was reused');
    if (usedRefreshTokens.has(claims.jti) && !ctx.faults.has('refresh-token-reusable')) {
      if (variant('refresh-reuse-revokes-family')) revokeDescendants(claims.jti);
      return parameterError(res, 'refresh_token has already been used');
    }
    // The race fault yields between the check above and the invalidation below.
    if (ctx.faults.has('refresh-race')) await new Promise((resolve) => setTimeout(resolve, 20));
    usedRefreshTokens.add(claims.jti);
    const previous = ctx.faults.has('refresh-reissues-old-access-token') ? accessTokenOfRefresh.get(claims.jti) : undefined;
    await issue(res, { clientId: claims.client_id, grant: 'refresh_token', previousAccessToken: previous, parentJti: claims.jti });
  }

  async function dispatchGrant(res: ServerResponse, fields: Record<string, unknown>): Promise<void> {
    switch (fields.grant_type) {
      case 'client_credentials':
        return clientCredentials(res, fields);
      case 'refresh_token':
        return refresh(res, fields);
      default:
        if (ctx.faults.has('grant-type-defaulted')) return clientCredentials(res, fields);
        return parameterError(res, fields.grant_type === undefined ? 'grant_type is required' : 'grant_type must be client_credentials or refresh_token');
    }
  }

  router.add('POST', TOKEN_ROUTE, async (req: RouteRequest, res) => {
    if (!bucket.take() && !ctx.faults.has('no-token-rate-limit')) return refuseOverRate(ctx, req.raw, res, bucket);
    if (ctx.faults.has('token-endpoint-requires-bearer') && !req.raw.headers.authorization) {
      return sendError(res, 401, 'unauthorized', 'bearer credential required', { 'www-authenticate': 'Bearer' });
    }
    const read = await readBody(req.raw, tokenBodyLimit(ctx, req.raw));
    if (read.kind === 'too-large') return refuseOversize(ctx, req.raw, res, read.limit);
    if (read.kind === 'aborted') return;
    if (isFormContentType(req.raw) && variant('token-form-body-accepted')) return dispatchGrant(res, Object.fromEntries(new URLSearchParams(read.text)));
    if (!isJsonContentType(req.raw)) return parameterError(res, 'Content-Type must be application/json');
    const parsed = parseJson(read.text);
    if (!parsed.ok) {
      if (ctx.faults.has('malformed-json-500')) return sendError(res, 500, 'internal_error', 'unexpected token in JSON');
      return parameterError(res, `body is not valid JSON: ${parsed.message}`);
    }
    const body = parsed.value;
    if (!body || typeof body !== 'object' || Array.isArray(body)) return parameterError(res, 'body must be a JSON object');
    return dispatchGrant(res, body as Record<string, unknown>);
  });

  router.add('GET', TOKEN_JWKS_ROUTE, async (req, res) => {
    if (variant('jwks-requires-bearer') && !(await authenticate(ctx, req, res))) return;
    sendJson(res, 200, ctx.keys.jwks());
  });
}
