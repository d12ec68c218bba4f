// Token endpoint, refresh_token grant (spec 4.1 rule 2, 5 rule 2, 2.1).
//
// What the spec leaves open, and the checks therefore accept:
// - whether the refresh response carries a refresh token at all (4.1 rule 2
//   only names "a renewed access token"): without one there is no successor
//   to test, which is a note, not a finding. When it carries one, 2.1 calls
//   it the "Credential used to obtain the next token pair": it must work once;
// - what an implementation does when it detects the reuse of a used refresh
//   token: revoking the whole token family is legitimate, so every check
//   tests what it needs from a family before anything reuses one of its tokens;
// - which code refuses a refresh: section 7 ties none to the condition, so
//   any 4xx of the token endpoint's list passes (check.expectRefused); a
//   server error is judged by what it did (refusal-effect.ts): a token in
//   its answer, or the refresh token it spent;
// - whether a token is byte-identical to one issued in the same second:
//   deterministic signers (EdDSA, RS256, HS256) without a jti give the same
//   token for the same claims until their clock moves (refresh-renewal.ts).
// The race of simultaneous refreshes is in refresh-race.check.ts.
import { setTimeout as sleep } from 'node:timers/promises';
import { clockOf, defineCheck, type CheckContext, type HttpClient, type HttpResponse } from '../../runner/index.ts';
import type { ResolvedProfile } from '../../src/config/profile.ts';
import { issuePair, postToken, refreshBody, renewTokens, type RenewedTokens, type TokenPair } from '../../src/auth/tokens.ts';
import { tamperPayload } from '../../src/auth/jwt.ts';
import { otherClientId } from './support.ts';
import { refreshRequestEffect, tokenRequestEffect } from './refusal-effect.ts';
import { RENEWAL_GAP_MS, receivedAt, tokenClock } from './refresh-renewal.ts';
import { renewalAfterClockMoved, reuseAccepted, successorFirstUse } from './refresh-judgments.ts';

/** The token response of 2.1 as a refresh answers it: refresh_token not demanded (see the file comment). */
const REFRESH_RESPONSE_SCHEMA = 'token-response.schema.json#/$defs/refreshResponse';

/**
 * A refresh of `pair` that must succeed (4.1 rule 2) with the token response
 * of 2.1 (refresh_token not demanded, see the file comment); its tokens.
 */
async function refreshOf(check: CheckContext, http: HttpClient, profile: ResolvedProfile, pair: TokenPair, label: string): Promise<RenewedTokens> {
  const res = await postToken(http, refreshBody(profile, pair.refreshToken), label);
  check.expectStatus(res, 200, label);
  check.expectSchema(res, REFRESH_RESPONSE_SCHEMA, `the answer to the ${label}`, { on: 'SPEC-4-1-RESPONSE-200' });
  const body = res.json as { access_token: string; refresh_token?: unknown; expires_in: number };
  const refreshToken = typeof body.refresh_token === 'string' ? body.refresh_token : undefined;
  return { accessToken: body.access_token, ...(refreshToken === undefined ? {} : { refreshToken }), expiresIn: body.expires_in, response: res };
}

/**
 * The renewed token was byte-identical to the one before: a deterministic
 * signer gives that for the same claims until its clock moves, so the
 * exchange is repeated with a fresh pair refreshed a whole second after its
 * issue (the issuer's clock, as the JWT's iat/exp show it, counts at best in
 * whole seconds then). Still identical: the refresh renewed nothing.
 */
async function renewedOnceTheClockMoved(check: CheckContext, http: HttpClient, profile: ResolvedProfile, first: TokenPair, renewed: RenewedTokens): Promise<void> {
  const clock = tokenClock(first.accessToken);
  const withinMs = Math.max(0, Math.round(renewed.response.startedAt.getTime() - receivedAt(first.response)));
  check.note(
    `the refresh sent ${withinMs} ms after the token pair arrived returned a byte-identical access token (iat ${clock.iat ?? 'none'}, the issuer's clock in ${clock.granularity}); a signer without a jti gives the same token for the same claims until its clock moves, so a pair is refreshed again a whole second after its issue`,
    { iat: clock.iat ?? null, exp: clock.exp ?? null, exchange: renewed.response.exchangeId },
  );
  const second = await issuePair(http, profile, 'obtain a second token pair, to refresh it a whole second after its issue');
  await sleep(Math.max(0, receivedAt(second.response) + RENEWAL_GAP_MS - Date.now()));
  const later = await refreshOf(check, http, profile, second, 'refresh a whole second after the token pair was issued');
  const gapMs = Math.round(later.response.startedAt.getTime() - receivedAt(second.response));
  const again = tokenClock(later.accessToken);
  check.judge(renewalAfterClockMoved, {
    gapMs,
    issuedAccessToken: second.accessToken,
    renewedAccessToken: later.accessToken,
    iat: again.iat ?? null,
    exp: again.exp ?? null,
    status: later.response.status,
    exchange: later.response.exchangeId,
  });
}

defineCheck(
  {
    id: 'auth.refresh-renews-access-token',
    title: 'A refresh returns a renewed access token',
    requirements: ['TOKEN-REFRESH-RENEWS'],
  },
  async ({ check, http, profile }) => {
    const first = await issuePair(http, profile);
    const renewed = await refreshOf(check, http, profile, first, 'refresh with a fresh refresh token');
    if (renewed.refreshToken === undefined) check.note('the refresh response carries no refresh_token (4.1 rule 2 only names a renewed access token)');
    if (renewed.accessToken === first.accessToken) await renewedOnceTheClockMoved(check, http, profile, first, renewed);
  },
);

/** The second use of a refresh token already exchanged once must be refused (the token is invalidated by its first use). */
function expectReuseRefused(check: CheckContext, res: HttpResponse, what: string): void {
  check.expectRefused(res, { operation: 'token', what: `${what} (reused at ${clockOf(res)})`, effect: tokenRequestEffect(res, 'TOKEN-REFRESH-SINGLE-USE') });
}

/**
 * The refresh token the first refresh handed out, used once. 2.1 calls it
 * the "Credential used to obtain the next token pair", so its first use must
 * work — also when it is the very token the refresh has just used: then it is
 * either refused (the response handed out a dead credential) or accepted
 * (the used token was not invalidated). Returns it for its second use, or
 * undefined (with a note) when the response carried none.
 */
async function useSuccessorOnce(check: CheckContext, http: HttpClient, profile: ResolvedProfile, used: string, renewed: RenewedTokens): Promise<string | undefined> {
  const successor = renewed.refreshToken;
  if (successor === undefined) {
    check.note('the refresh response carries no refresh token, so there is no successor whose single use could be tested');
    return undefined;
  }
  const repeated = successor === used;
  const firstUse = await postToken(http, refreshBody(profile, successor), `first use of the refresh token the refresh handed out${repeated ? ' (the very token it had used)' : ''}`);
  check.judge(successorFirstUse, { used, successor, status: firstUse.status, exchange: firstUse.exchangeId, at: clockOf(firstUse) });
  return successor;
}

defineCheck(
  {
    id: 'auth.refresh-token-single-use',
    title: 'A used refresh token is rejected on reuse, and its successor works exactly once',
    requirements: ['TOKEN-REFRESH-SINGLE-USE'],
  },
  async ({ check, http, profile }) => {
    const pair = await issuePair(http, profile);
    const renewed = await renewTokens(http, profile, pair.refreshToken, 'first use of the refresh token');
    // The successor's first use comes before any reuse: detecting a reuse may legitimately revoke it too.
    const successor = await useSuccessorOnce(check, http, profile, pair.refreshToken, renewed);
    const reuse = await postToken(http, refreshBody(profile, pair.refreshToken), 'second use of the same refresh token');
    check.judge(reuseAccepted, { which: 'used-once', status: reuse.status, exchange: reuse.exchangeId, at: clockOf(reuse) });
    expectReuseRefused(check, reuse, 'the refresh token used once');
    if (successor === undefined) return;
    // Refused either way: used once already, or revoked with its family after the reuse above.
    const secondUse = await postToken(http, refreshBody(profile, successor), 'second use of the refresh token the refresh issued');
    check.judge(reuseAccepted, { which: 'issued-by-refresh', status: secondUse.status, exchange: secondUse.exchangeId, at: clockOf(secondUse) });
    expectReuseRefused(check, secondUse, 'the refresh token issued by the refresh');
  },
);

defineCheck(
  {
    id: 'auth.refresh-rejects-invalid-token',
    title: 'The refresh grant rejects tokens that are not valid refresh tokens',
    requirements: ['TOKEN-REFRESH-TOKEN-VALID'],
  },
  async ({ check, http, profile }) => {
    const pair = await issuePair(http, profile);
    const candidates: Array<[string, string]> = [
      ['a random string as refresh_token', 'not-a-refresh-token-' + crypto.randomUUID()],
      ['a refresh token with a forged payload', tamperPayload(pair.refreshToken)],
      ['an access token as refresh_token', pair.accessToken],
    ];
    for (const [what, token] of candidates) {
      const res = await postToken(http, refreshBody(profile, token), `refresh with ${what}`);
      check.expectRefused(res, { operation: 'token', what: `a refresh with ${what}`, on: 'TOKEN-REFRESH-TOKEN-VALID', effect: tokenRequestEffect(res, 'TOKEN-REFRESH-TOKEN-VALID') });
    }
  },
);

defineCheck(
  {
    id: 'auth.client-id-required',
    title: 'client_id is required for both grant types',
    requirements: ['TOKEN-CLIENT-ID-REQUIRED'],
  },
  async ({ check, http, profile }) => {
    const pair = await issuePair(http, profile);
    const refresh = await postToken(http, { grant_type: 'refresh_token', refresh_token: pair.refreshToken }, 'refresh without client_id');
    const spent = await refreshRequestEffect(http, profile, refresh, pair.refreshToken, 'TOKEN-CLIENT-ID-REQUIRED');
    check.expectRefused(refresh, { operation: 'token', what: 'a refresh without client_id', on: 'TOKEN-CLIENT-ID-REQUIRED', effect: spent });
    const cc = await postToken(http, { grant_type: 'client_credentials', client_secret: profile.credentials.clientSecret }, 'client_credentials without client_id');
    check.expectRefused(cc, { operation: 'token', what: 'client_credentials without client_id', on: 'TOKEN-CLIENT-ID-REQUIRED', effect: tokenRequestEffect(cc, 'TOKEN-CLIENT-ID-REQUIRED') });
  },
);

defineCheck(
  {
    id: 'auth.refresh-bound-to-client',
    title: "A refresh token presented with another client's client_id is refused",
    requirements: ['TOKEN-REFRESH-CLIENT-BOUND'],
  },
  async ({ check, http, profile }) => {
    const other = otherClientId(profile, check);
    const pair = await issuePair(http, profile);
    const res = await postToken(http, refreshBody(profile, pair.refreshToken, other), "refresh with another client's client_id");
    const effect = await refreshRequestEffect(http, profile, res, pair.refreshToken, 'TOKEN-REFRESH-CLIENT-BOUND');
    check.expectRefused(res, { operation: 'token', what: `a refresh token of ${profile.credentials.clientId} presented with client_id ${other}`, on: 'TOKEN-REFRESH-CLIENT-BOUND', effect });
  },
);
