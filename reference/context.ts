// What every route of the reference shares: options, faults, keys, the
// seeded users and bearer authentication.
import type { ServerResponse } from 'node:http';
import { sendError } from './http-util.ts';
import type { FaultSet } from './faults/index.ts';
import type { VariantSet } from './variants/index.ts';
import type { ConditionSet } from './conditions/index.ts';
import type { ReferenceClock } from './conditions/second-resolution.ts';
import type { TokenClaims, TokenKeys } from './keys.ts';
import type { ReferenceOptions } from './options.ts';
import type { RouteRequest } from './router.ts';
import type { User } from './fixtures/users.ts';
import { decodeJwt } from 'jose';

export interface ReferenceContext {
  options: ReferenceOptions;
  faults: FaultSet;
  variants: VariantSet;
  conditions: ConditionSet;
  /** How the reference reads time and writes timestamps: milliseconds, or whole seconds under second-resolution. */
  clock: ReferenceClock;
  keys: TokenKeys;
  users: Map<string, User>;
  /** Opaque token → JWT, used only by the opaque-tokens fault. */
  opaqueTokens: Map<string, string>;
  /** Access tokens whose signature was verified, until their exp. Per server: keys differ between servers. */
  verifiedAccessTokens: Map<string, TokenClaims>;
  /** The address clients reach the reference at (known once listening). */
  baseUrl(): string;
}

const BEARER = /^Bearer\s+(\S+)$/i;
const VERIFIED_CACHE_LIMIT = 10_000;

async function claimsFor(ctx: ReferenceContext, token: string, signatureUnchecked: boolean): Promise<TokenClaims | undefined> {
  const jwt = ctx.opaqueTokens.get(token) ?? token;
  if (signatureUnchecked) {
    try {
      return decodeJwt(jwt) as TokenClaims;
    } catch {
      return undefined;
    }
  }
  const cached = ctx.verifiedAccessTokens.get(jwt);
  if (cached) return cached.exp * 1000 > Date.now() ? cached : undefined;
  const claims = await ctx.keys.verify(jwt);
  // Verifying an Ed25519 signature per request would cap throughput; a verified token stays valid until exp.
  if (claims) {
    if (ctx.verifiedAccessTokens.size >= VERIFIED_CACHE_LIMIT) ctx.verifiedAccessTokens.clear();
    ctx.verifiedAccessTokens.set(jwt, claims);
  }
  return claims;
}

/**
 * Authenticates the bearer access token of a request (spec 5). Answers 401
 * itself and returns undefined when the request may not proceed.
 */
/** The faults that break one operation's bearer rule, and not the others'. */
export interface OperationBearerFaults {
  /** A request without any Authorization passes. */
  notRequired: string;
  /** The bearer JWT is decoded without verifying its signature, so a tampered one passes. */
  signatureUnchecked: string;
}

/** authenticate, under the faults that break only this operation's bearer rule. */
export async function authenticateUnless(faults: OperationBearerFaults, ctx: ReferenceContext, req: RouteRequest, res: ServerResponse): Promise<boolean> {
  if (ctx.faults.has(faults.notRequired) && !req.raw.headers.authorization) return true;
  return (await authenticate(ctx, req, res, ctx.faults.has(faults.signatureUnchecked))) !== undefined;
}

export async function authenticate(ctx: ReferenceContext, req: RouteRequest, res: ServerResponse, signatureUnchecked = false): Promise<TokenClaims | undefined> {
  const header = req.raw.headers.authorization;
  if (!header) {
    if (ctx.faults.has('missing-bearer-allowed')) {
      return { token_use: 'access', client_id: ctx.options.clientId, jti: 'anonymous', exp: 0, iat: 0 };
    }
    sendError(res, 401, 'unauthorized', 'missing bearer credential', { 'www-authenticate': 'Bearer' });
    return undefined;
  }
  const match = BEARER.exec(header);
  const claims = match ? await claimsFor(ctx, match[1]!, signatureUnchecked || ctx.faults.has('bearer-signature-unchecked')) : undefined;
  const usable = claims && (claims.token_use === 'access' || ctx.faults.has('refresh-token-as-bearer'));
  if (!usable || ctx.faults.has('valid-bearer-rejected')) {
    sendError(res, 401, 'unauthorized', 'invalid bearer credential', { 'www-authenticate': 'Bearer error="invalid_token"' });
    return undefined;
  }
  return claims;
}
