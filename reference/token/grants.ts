// The two grant types of POST /v1/oauth/token (spec 4.1) once the body is
// read: client_credentials and single-use refresh tokens, and the 200 that
// hands the tokens out. The choices and variants are listed in
// routes/token.ts. Every check-then-invalidate step is synchronous so
// concurrent refreshes of one token cannot both succeed.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import type { ReferenceContext } from '../context.ts';
import { sendError, sendJson } from '../http-util.ts';
import { accessTokenLifetimeSeconds } from '../conditions/short-token-lifetime.ts';

/** How long the refresh-race fault leaves a used refresh token valid after checking it. */
const REFRESH_RACE_WINDOW_MS = 300;

/** What one 200 of the token endpoint hands out, and for whom. */
interface Issuance {
  clientId: string;
  grant: 'client_credentials' | 'refresh_token';
  /** The refresh-reissues-old-access-token fault hands this out again instead of a new access token. */
  previousAccessToken?: string;
  /** The refresh token this refresh exchanged, whose family the new one joins. */
  parentJti?: string;
  /** The refresh-returns-used-token fault hands this (the just-invalidated refresh token, as presented) back as refresh_token. */
  usedRefreshToken?: string;
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A parameter error: 422, or 400 under the parameter-error-400 fault. */
export function parameterError(ctx: ReferenceContext, res: ServerResponse, message: string): void {
  sendError(res, ctx.faults.has('parameter-error-400') ? 400 : 422, 'parameter_error', message);
}

export class TokenGrants {
  /** Refresh-token jti → it has been used. */
  private readonly usedRefreshTokens = new Set<string>();
  /** Refresh-token jti → the access token issued with it (for the refresh-reissues-old-access-token fault). */
  private readonly accessTokenOfRefresh = new Map<string, string>();
  /** Refresh-token jti → the jti of the refresh token its refresh issued (refresh-reuse-revokes-family). */
  private readonly successorOf = new Map<string, string>();
  /** Refresh-token jti → revoked because a token before it in its family was reused. */
  private readonly revokedRefreshTokens = new Set<string>();

  constructor(private readonly ctx: ReferenceContext) {}

  private fault(name: string): boolean {
    return this.ctx.faults.has(name);
  }

  private variant(name: string): boolean {
    return this.ctx.variants.has(name);
  }

  private parameterError(res: ServerResponse, message: string): void {
    parameterError(this.ctx, res, message);
  }

  /** Answers a token request by its grant_type. */
  async dispatchGrant(res: ServerResponse, fields: Record<string, unknown>): Promise<void> {
    switch (fields.grant_type) {
      case 'client_credentials':
        return this.clientCredentials(res, fields);
      case 'refresh_token':
        return this.refresh(res, fields);
      default:
        if (this.fault('grant-type-defaulted')) return this.clientCredentials(res, fields);
        return this.parameterError(res, fields.grant_type === undefined ? 'grant_type is required' : 'grant_type must be client_credentials or refresh_token');
    }
  }

  private async clientCredentials(res: ServerResponse, body: Record<string, unknown>): Promise<void> {
    const ctx = this.ctx;
    const { client_id: clientId, client_secret: clientSecret } = body;
    if (typeof clientId !== 'string' || !clientId) return this.parameterError(res, 'client_id is required');
    if (typeof clientSecret !== 'string' && !this.fault('client-secret-unchecked')) {
      return this.parameterError(res, 'client_secret is required for client_credentials');
    }
    // The own-licence client (spec 4.2 rule 7) shares the main client's secret; its tokens carry its own client_id.
    const knownClient = safeEqual(clientId, ctx.options.clientId) || safeEqual(clientId, ctx.options.ownLicenceClientId);
    const secretOk = this.fault('client-secret-unchecked') || safeEqual(String(clientSecret), ctx.options.clientSecret);
    if (!knownClient || !secretOk) return this.parameterError(res, 'invalid client credentials');
    await this.issue(res, { clientId, grant: 'client_credentials' });
  }

  private async refresh(res: ServerResponse, body: Record<string, unknown>): Promise<void> {
    const ctx = this.ctx;
    const { client_id: clientId, refresh_token: presented } = body;
    if (this.fault('refresh-spent-by-bad-client-id') && clientId !== undefined && typeof clientId !== 'string') return this.spendThenThrow(presented);
    const clientIdOptional = this.fault('refresh-without-client-id');
    if ((typeof clientId !== 'string' || !clientId) && !clientIdOptional) return this.parameterError(res, 'client_id is required');
    if (typeof presented !== 'string' || !presented) return this.parameterError(res, 'refresh_token is required');
    const jwt = ctx.opaqueTokens.get(presented) ?? presented;
    const verified = await ctx.keys.verify(jwt);
    // A refresh token is tracked by its jti; one without any is no refresh token of this server.
    const claims = verified?.jti === undefined ? undefined : { ...verified, jti: verified.jti };
    if (!claims || claims.token_use !== 'refresh') {
      if (this.fault('refresh-accepts-any-token')) return this.issue(res, { clientId: ctx.options.clientId, grant: 'refresh_token' });
      return this.parameterError(res, 'refresh_token is not a valid refresh token');
    }
    const otherClient = typeof clientId === 'string' && clientId !== claims.client_id;
    if (otherClient && !this.fault('refresh-client-unbound')) return this.parameterError(res, 'refresh_token was not issued to this client');
    if (this.revokedRefreshTokens.has(claims.jti)) return this.parameterError(res, 'refresh_token was revoked: a token before it was reused');
    if (this.usedRefreshTokens.has(claims.jti) && !this.fault('refresh-token-reusable')) {
      if (this.variant('refresh-reuse-revokes-family')) this.revokeDescendants(claims.jti);
      return this.parameterError(res, 'refresh_token has already been used');
    }
    // The race fault yields between the check above and the invalidation below,
    // as a slow store write would: long enough that racers sent together still
    // arrive inside it when each opens its own connection on a busy machine.
    if (this.fault('refresh-race')) await new Promise((resolve) => setTimeout(resolve, REFRESH_RACE_WINDOW_MS));
    this.usedRefreshTokens.add(claims.jti);
    const previous = this.fault('refresh-reissues-old-access-token') ? this.accessTokenOfRefresh.get(claims.jti) : undefined;
    const usedRefreshToken = this.fault('refresh-returns-used-token') ? presented : undefined;
    await this.issue(res, { clientId: claims.client_id, grant: 'refresh_token', previousAccessToken: previous, parentJti: claims.jti, usedRefreshToken });
  }

  /**
   * The refresh-spent-by-bad-client-id fault: the presented refresh token is
   * marked used before client_id is read, and a client_id that is not a
   * string then throws (500) — the client loses its refresh token and gets
   * no access token for it.
   */
  private async spendThenThrow(presented: unknown): Promise<never> {
    const claims = typeof presented === 'string' ? await this.ctx.keys.verify(this.ctx.opaqueTokens.get(presented) ?? presented) : undefined;
    if (claims?.token_use === 'refresh' && claims.jti !== undefined) this.usedRefreshTokens.add(claims.jti);
    throw new TypeError('clientId.trim is not a function');
  }

  /** The refresh tokens issued, directly or not, from this one: revoked when it is reused (refresh-reuse-revokes-family). */
  private revokeDescendants(jti: string): void {
    for (let next = this.successorOf.get(jti); next !== undefined; next = this.successorOf.get(next)) this.revokedRefreshTokens.add(next);
  }

  private async issue(res: ServerResponse, { clientId, grant, previousAccessToken, parentJti, usedRefreshToken }: Issuance): Promise<void> {
    const ctx = this.ctx;
    const accessToken = previousAccessToken ?? (await this.signAccessToken(clientId, grant));
    const withRefreshToken = grant === 'client_credentials' || !this.variant('refresh-omits-refresh-token');
    const refreshToken = withRefreshToken && usedRefreshToken === undefined ? await this.signRefreshToken(clientId, accessToken, parentJti) : undefined;
    const shownAccess = this.present(accessToken);
    const shownRefresh = usedRefreshToken ?? (refreshToken === undefined ? undefined : this.present(refreshToken));
    // Opt-in audit of every credential handed out, so leak tests can grep artifacts for them.
    if (ctx.options.issuedTokenLog) appendFileSync(ctx.options.issuedTokenLog, [shownAccess, shownRefresh].filter(Boolean).map((t) => `${t}\n`).join(''));
    const body = {
      expires_in: this.expiresIn(),
      access_token: shownAccess,
      ...(shownRefresh === undefined ? {} : { refresh_token: this.fault('cc-same-token-twice') && grant === 'client_credentials' ? shownAccess : shownRefresh }),
    };
    if (this.fault('token-content-type-text')) {
      res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
      return;
    }
    sendJson(res, 200, body);
  }

  private async signAccessToken(clientId: string, grant: Issuance['grant']): Promise<string> {
    const ctx = this.ctx;
    // The fault's access token carries an issuer the reference does not accept, so it never opens the API.
    const unrecognised = grant === 'refresh_token' && this.fault('refreshed-access-token-rejected');
    // deterministic-tokens: no jti, so the same claims within one second sign to the same token.
    const withoutJti = ctx.conditions.has('deterministic-tokens');
    return ctx.keys.sign('access', clientId, accessTokenLifetimeSeconds(ctx.options.accessTokenTtlSeconds, ctx.conditions), undefined, {
      withoutJti,
      expInMilliseconds: this.fault('jwt-exp-milliseconds'),
      ...(unrecognised ? { issuer: `${ctx.keys.issuer}/unrecognised` } : {}),
    });
  }

  private async signRefreshToken(clientId: string, accessToken: string, parentJti?: string): Promise<string> {
    const jti = crypto.randomUUID();
    const key = this.variant('refresh-token-internal-key') ? 'internal' : 'published';
    const refreshToken = await this.ctx.keys.sign('refresh', clientId, this.ctx.options.refreshTokenTtlSeconds, jti, { key });
    this.accessTokenOfRefresh.set(jti, accessToken);
    if (parentJti) this.successorOf.set(parentJti, jti);
    return refreshToken;
  }

  /** The token as handed out: itself, or an opaque stand-in under the opaque-tokens fault. */
  private present(token: string): string {
    if (!this.fault('opaque-tokens')) return token;
    const opaque = randomBytes(24).toString('hex');
    this.ctx.opaqueTokens.set(opaque, token);
    return opaque;
  }

  private expiresIn(): number | string {
    const seconds = accessTokenLifetimeSeconds(this.ctx.options.accessTokenTtlSeconds, this.ctx.conditions);
    if (this.fault('expires-in-as-string')) return String(seconds);
    return seconds * (this.variant('expires-in-milliseconds') ? 1000 : 1) * (this.fault('expires-in-mismatch') ? 3 : 1);
  }
}
