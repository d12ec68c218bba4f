// Token endpoint, refresh_token grant (spec 4.1 rule 2, 5 rule 2).
//
// What the spec leaves open, and the checks therefore accept:
// - whether the refresh response carries a refresh token at all (4.1 rule 2
//   only names "a renewed access token"): without one there is no successor
//   to test, which is a note, not a finding;
// - what an implementation does when it detects the reuse of a used refresh
//   token: revoking the whole token family is legitimate, so every check
//   tests what it needs from a family before anything reuses one of its tokens;
// - which code refuses a refresh: section 7 ties none to the condition, so
//   any 4xx of the token endpoint's list passes (check.expectRefused).
import { clockOf, defineCheck, isServerError, isSuccess, type CheckContext, type HttpClient, type HttpResponse } from '../../src/check/index.ts';
import type { ResolvedProfile } from '../../src/config/profile.ts';
import { issuePair, postToken, refreshBody, renewTokens, type RenewedTokens } from '../../src/auth/tokens.ts';
import { tamperPayload } from '../../src/auth/jwt.ts';
import { otherClientId } from './support.ts';

/** The token response of 2.1 as a refresh answers it: refresh_token not demanded (see the file comment). */
const REFRESH_RESPONSE_SCHEMA = 'token-response.schema.json#/$defs/refreshResponse';

defineCheck(
  {
    id: 'auth.refresh-renews-access-token',
    title: 'A refresh returns a renewed access token',
    requirements: ['TOKEN-REFRESH-RENEWS'],
  },
  async ({ check, http, profile }) => {
    const first = await issuePair(http, profile);
    const res = await postToken(http, refreshBody(profile, first.refreshToken), 'refresh with a fresh refresh token');
    check.expectStatus(res, 200, 'refresh with a fresh refresh token and client_id');
    check.expectSchema(res, REFRESH_RESPONSE_SCHEMA, 'refresh response');
    const body = res.json as { access_token: string; refresh_token?: unknown };
    check.assert(body.access_token !== first.accessToken, 'the refresh returned the same access token as before, not a renewed one');
    if (body.refresh_token === undefined) check.note('the refresh response carries no refresh_token (4.1 rule 2 only names a renewed access token)');
  },
);

/** The second use of a refresh token already exchanged once must be refused (the token is invalidated by its first use). */
function expectReuseRefused(check: CheckContext, res: HttpResponse, what: string): void {
  check.expectRefused(res, { operation: 'token', what: `${what} (reused at ${clockOf(res)})` });
}


/**
 * The refresh token the first refresh handed out, used once: it must work.
 * Returns it for its second use, or undefined (with a note) when the response
 * carried none, or (with a WARN) when it repeated the used one.
 */
async function useSuccessorOnce(check: CheckContext, http: HttpClient, profile: ResolvedProfile, used: string, renewed: RenewedTokens): Promise<string | undefined> {
  const successor = renewed.refreshToken;
  if (successor === undefined) {
    check.note('the refresh response carries no refresh token, so there is no successor whose single use could be tested');
    return undefined;
  }
  if (successor === used) {
    check.warn('the refresh response handed back the refresh token it had just invalidated; 4.1 rule 2 invalidates it, so returning it again can only mislead the client');
    return undefined;
  }
  const firstUse = await postToken(http, refreshBody(profile, successor), 'first use of the refresh token the refresh issued');
  // Still rate limited after postToken's bounded waits: nothing about the token was observed.
  if (firstUse.status === 429) throw new Error('the first use of the refresh token the refresh issued stayed rate limited (429)');
  if (firstUse.status !== 200) {
    check.fail(`the refresh token issued by the refresh was refused on its first use: ${firstUse.status}`, { actual: firstUse.status, exchange: firstUse.exchangeId });
  }
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
    if (isSuccess(reuse.status)) check.fail(`refresh token reused at ${clockOf(reuse)} was accepted: ${reuse.status}`, { expected: 'a 4xx refusal', actual: reuse.status, exchange: reuse.exchangeId });
    expectReuseRefused(check, reuse, 'the refresh token used once');
    if (successor === undefined) return;
    // Refused either way: used once already, or revoked with its family after the reuse above.
    const secondUse = await postToken(http, refreshBody(profile, successor), 'second use of the refresh token the refresh issued');
    if (isSuccess(secondUse.status)) check.fail(`the refresh token issued by the refresh was accepted twice: ${secondUse.status}`, { expected: 'a 4xx refusal', actual: secondUse.status, exchange: secondUse.exchangeId });
    expectReuseRefused(check, secondUse, 'the refresh token issued by the refresh');
  },
);

defineCheck(
  {
    id: 'auth.refresh-token-single-use-race',
    title: 'Of simultaneous refreshes with one refresh token at most one succeeds',
    requirements: ['TOKEN-REFRESH-SINGLE-USE-ATOMIC'],
  },
  async ({ check, http, profile }) => {
    const n = profile.auth?.concurrency ?? 8;
    const pair = await issuePair(http, profile);
    // One attempt each: retrying a 429 here would serialize the race away.
    const results = await Promise.all(
      Array.from({ length: n }, (_, i) => http.post('/v1/oauth/token', { json: refreshBody(profile, pair.refreshToken), label: `concurrent refresh ${i + 1}/${n}`, once: true })),
    );
    const statuses = results.map((r) => r.status);
    const successes = statuses.filter(isSuccess).length;
    check.event('concurrent refreshes answered', statuses.join(', '));
    if (successes > 1) check.fail(`${successes} of ${n} simultaneous refreshes with one refresh token succeeded; at most one may`, { statuses });
    if (successes === 0 && statuses.every((s) => s === 429)) check.skip(`every refresh was rate limited (429), so the race was not exercised`);
    // Single use held; a 5xx for the losers is a server error, not a second use (7 lists 500 for the endpoint).
    if (statuses.some(isServerError)) check.warn(`single use held, but simultaneous refreshes were answered with a server error (${statuses.join(', ')})`, { statuses });
    if (successes === 0) check.note(`none of the ${n} simultaneous refreshes succeeded (${statuses.join(', ')}): single use held, though the token was not exchanged at all`);
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
      check.expectRefused(res, { operation: 'token', what: `a refresh with ${what}` });
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
    check.expectRefused(refresh, { operation: 'token', what: 'a refresh without client_id' });
    const cc = await postToken(http, { grant_type: 'client_credentials', client_secret: profile.credentials.clientSecret }, 'client_credentials without client_id');
    check.expectRefused(cc, { operation: 'token', what: 'client_credentials without client_id' });
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
    check.expectRefused(res, { operation: 'token', what: `a refresh token of ${profile.credentials.clientId} presented with client_id ${other}` });
  },
);
