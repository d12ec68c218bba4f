// POST /v1/oauth/token (spec 4.1): both grant types, single-use refresh
// tokens, 422 for parameter errors, 413 above the body limit, 429 above the
// rate limit. Every check-then-invalidate step is synchronous so concurrent
// refreshes of one token cannot both succeed.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import type { ReferenceContext } from '../context.ts';
import { isJsonContentType, parseJson, readBody, sendError, sendJson } from '../http-util.ts';
import { TokenBucket } from '../limits/token-bucket.ts';
import { refuseOverRate, refuseOversize, tokenBodyLimit } from '../limits/token-limits.ts';
import type { Router, RouteRequest } from '../router.ts';

export const TOKEN_ROUTE = '/v1/oauth/token';

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export function registerTokenRoutes(router: Router, ctx: ReferenceContext): void {
  const bucket = new TokenBucket(ctx.options.tokenRatePerSecond, ctx.options.tokenBurst);
  /** Refresh-token jti → it has been used. */
  const usedRefreshTokens = new Set<string>();
  /** Refresh-token jti → the access token issued with it (for the refresh-reissues-old-access-token fault). */
  const accessTokenOfRefresh = new Map<string, string>();

  const parameterError = (res: ServerResponse, message: string) =>
    sendError(res, ctx.faults.has('parameter-error-400') ? 400 : 422, 'parameter_error', message);

  const present = (token: string): string => {
    if (!ctx.faults.has('opaque-tokens')) return token;
    const opaque = randomBytes(24).toString('hex');
    ctx.opaqueTokens.set(opaque, token);
    return opaque;
  };

  async function issue(res: ServerResponse, clientId: string, previousAccessToken?: string): Promise<void> {
    const { accessTokenTtlSeconds, refreshTokenTtlSeconds } = ctx.options;
    const accessToken = previousAccessToken ?? (await ctx.keys.sign('access', clientId, accessTokenTtlSeconds));
    const refreshJti = crypto.randomUUID();
    const refreshToken = await ctx.keys.sign('refresh', clientId, refreshTokenTtlSeconds, refreshJti);
    accessTokenOfRefresh.set(refreshJti, accessToken);
    const shownAccess = present(accessToken);
    const shownRefresh = present(refreshToken);
    // Opt-in audit of every credential handed out, so leak tests can grep artifacts for them.
    if (ctx.options.issuedTokenLog) appendFileSync(ctx.options.issuedTokenLog, `${shownAccess}\n${shownRefresh}\n`);
    const body = {
      expires_in: ctx.faults.has('expires-in-as-string')
        ? String(accessTokenTtlSeconds)
        : accessTokenTtlSeconds * (ctx.faults.has('expires-in-mismatch') ? 3 : 1),
      access_token: shownAccess,
      refresh_token: ctx.faults.has('cc-same-token-twice') && !previousAccessToken ? shownAccess : shownRefresh,
    };
    if (ctx.faults.has('token-content-type-text')) {
      res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
      return;
    }
    sendJson(res, 200, body);
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
    await issue(res, clientId);
  }

  async function refresh(res: ServerResponse, body: Record<string, unknown>): Promise<void> {
    const { client_id: clientId, refresh_token: presented } = body;
    const clientIdOptional = ctx.faults.has('refresh-without-client-id');
    if ((typeof clientId !== 'string' || !clientId) && !clientIdOptional) return parameterError(res, 'client_id is required');
    if (typeof presented !== 'string' || !presented) return parameterError(res, 'refresh_token is required');
    const jwt = ctx.opaqueTokens.get(presented) ?? presented;
    const claims = await ctx.keys.verify(jwt);
    if (!claims || claims.token_use !== 'refresh') {
      if (ctx.faults.has('refresh-accepts-any-token')) return issue(res, ctx.options.clientId);
      return parameterError(res, 'refresh_token is not a valid refresh token');
    }
    if (typeof clientId === 'string' && clientId !== claims.client_id) return parameterError(res, 'refresh_token was not issued to this client');
    if (usedRefreshTokens.has(claims.jti) && !ctx.faults.has('refresh-token-reusable')) {
      return parameterError(res, 'refresh_token has already been used');
    }
    // The race fault yields between the check above and the invalidation below.
    if (ctx.faults.has('refresh-race')) await new Promise((resolve) => setTimeout(resolve, 20));
    usedRefreshTokens.add(claims.jti);
    const previous = ctx.faults.has('refresh-reissues-old-access-token') ? accessTokenOfRefresh.get(claims.jti) : undefined;
    await issue(res, claims.client_id, previous);
  }

  router.add('POST', TOKEN_ROUTE, async (req: RouteRequest, res) => {
    if (!bucket.take() && !ctx.faults.has('no-token-rate-limit')) return refuseOverRate(ctx, req.raw, res, bucket);
    if (ctx.faults.has('token-endpoint-requires-bearer') && !req.raw.headers.authorization) {
      return sendError(res, 401, 'unauthorized', 'bearer credential required', { 'www-authenticate': 'Bearer' });
    }
    const read = await readBody(req.raw, tokenBodyLimit(ctx, req.raw));
    if (read.kind === 'too-large') return refuseOversize(ctx, req.raw, res, read.limit);
    if (read.kind === 'aborted') return;
    if (!isJsonContentType(req.raw)) return parameterError(res, 'Content-Type must be application/json');
    const parsed = parseJson(read.text);
    if (!parsed.ok) {
      if (ctx.faults.has('malformed-json-500')) return sendError(res, 500, 'internal_error', 'unexpected token in JSON');
      return parameterError(res, `body is not valid JSON: ${parsed.message}`);
    }
    const body = parsed.value;
    if (!body || typeof body !== 'object' || Array.isArray(body)) return parameterError(res, 'body must be a JSON object');
    const fields = body as Record<string, unknown>;
    switch (fields.grant_type) {
      case 'client_credentials':
        return clientCredentials(res, fields);
      case 'refresh_token':
        return refresh(res, fields);
      default:
        if (ctx.faults.has('grant-type-defaulted')) return clientCredentials(res, fields);
        return parameterError(res, fields.grant_type === undefined ? 'grant_type is required' : 'grant_type must be client_credentials or refresh_token');
    }
  });

  router.add('GET', '/.well-known/jwks.json', (_req, res) => sendJson(res, 200, ctx.keys.jwks()));
}
