// How a renewed access token is told from the one before (4.1 rule 2: "a
// renewed access token"). A deterministic signer (EdDSA, RS256, HS256)
// without a jti gives byte-identical tokens for the same claims until the
// clock its iat/exp are read from moves — in whole seconds for a JWT's
// NumericDate (RFC 7519 2) — so a renewal can only be told apart a whole
// second after the issue.
import type { HttpResponse } from '../../runner/index.ts';
import { decodeJwt } from '../../src/auth/jwt.ts';

/**
 * How long after a pair was received its refresh is sent, when a renewal
 * must be told from the same token: a whole second on the issuer's clock
 * (the pair was issued before it was received, so a second after receipt is
 * at least a second after issue), and a margin for an issuer that rounds
 * instead of truncating.
 */
export const RENEWAL_GAP_MS = 1_100;

/** When the answer was received, on this machine's clock. */
export const receivedAt = (res: HttpResponse): number => res.startedAt.getTime() + res.durationMs;

export interface TokenClock {
  iat?: number;
  exp?: number;
  /** How fine the issuer's clock is, as far as the token's time claims show. */
  granularity: string;
}

/** The issuer's clock as the token shows it: its iat and exp (whole seconds unless a claim carries a fraction). */
export function tokenClock(token: string): TokenClock {
  const decoded = decodeJwt(token);
  const payload = typeof decoded === 'string' ? {} : decoded.payload;
  const iat = typeof payload.iat === 'number' ? payload.iat : undefined;
  const exp = typeof payload.exp === 'number' ? payload.exp : undefined;
  return clockOfTimes(iat, exp);
}

/** The issuer's clock as a token's iat and exp show it (undefined: the token has none). */
export function clockOfTimes(iat: number | undefined, exp: number | undefined): TokenClock {
  const times = [iat, exp].filter((t): t is number => t !== undefined);
  const granularity = !times.length ? 'units the token does not show (no iat or exp)' : times.every(Number.isInteger) ? 'whole seconds' : 'fractions of a second';
  return { ...(iat === undefined ? {} : { iat }), ...(exp === undefined ? {} : { exp }), granularity };
}
