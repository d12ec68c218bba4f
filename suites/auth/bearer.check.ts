// The bearer credential on protected operations (spec 4 preamble, 5 rules 1-2, 7).
// 401 is the code a missing or invalid bearer credential gets: it is the one
// code of the operation's section 7 list named "unauthorized".
//
// A valid access token is judged by whether it was let in: only a 401 says
// the credential itself was refused. A 403 says it was recognised and the
// operation is forbidden to this client (the protected operation the profile
// names may be one it may not call); a 503 is transient (the client asks
// again; still 503 is ERROR "not observed"); any other answer says nothing
// of the credential either.
import { defineCheck, type CheckContext, type HttpClient } from '../../runner/index.ts';
import type { ResolvedProfile } from '../../src/config/profile.ts';
import { issuePair, renewTokens } from '../../src/auth/tokens.ts';
import { stripSignature, tamperPayload } from '../../src/auth/jwt.ts';
import { GET_EXECUTES_NOTHING } from '../../src/check/server-error.ts';
import { protectedOperation, protectedPath } from './support.ts';
import { sendWithIssuedToken } from './issued-token.ts';
import { accessTokenLetIn, refreshTokenRefusalCode } from './bearer-judgments.ts';

/**
 * A GET of the protected operation with an access token the token endpoint
 * issued (by `obtain`): it must be let in. A 401 the token's own lifetime may
 * explain is no finding (sendWithIssuedToken).
 */
async function expectAccessTokenAccepted(check: CheckContext, http: HttpClient, profile: ResolvedProfile, obtain: () => Promise<{ accessToken: string; expiresIn: number }>, how: string): Promise<void> {
  const path = protectedPath(profile, check);
  const send = (accessToken: string) => http.get(path, { bearer: accessToken, label: `protected operation with ${how}` });
  const res = await sendWithIssuedToken(check, profile, obtain, send, `GET ${path} with ${how}`);
  const declaredProtectedPath = (check.declaredValue('auth.protectedPath') as string | undefined) ?? null;
  check.judge(accessTokenLetIn, { how, path, status: res.status, exchange: res.exchangeId, declaredProtectedPath });
}

defineCheck(
  {
    id: 'auth.access-token-opens-api',
    title: 'A freshly issued access token opens a protected operation',
    requirements: ['AUTH-ACCESS-TOKEN-ACCEPTED'],
  },
  async ({ check, http, profile }) => {
    protectedPath(profile, check); // SKIP before issuing anything when there is no protected operation
    await expectAccessTokenAccepted(check, http, profile, () => issuePair(http, profile), 'a freshly issued access token');
  },
);

defineCheck(
  {
    id: 'auth.refreshed-access-token-opens-api',
    title: 'An access token issued by a refresh opens a protected operation',
    requirements: ['AUTH-ACCESS-TOKEN-ACCEPTED'],
  },
  async ({ check, http, profile }) => {
    protectedPath(profile, check); // SKIP before issuing anything when there is no protected operation
    const refreshed = async () => renewTokens(http, profile, (await issuePair(http, profile)).refreshToken, 'refresh for a renewed access token');
    await expectAccessTokenAccepted(check, http, profile, refreshed, 'the access token a refresh issued');
  },
);

defineCheck(
  {
    id: 'auth.missing-bearer-is-401',
    title: 'A protected operation without Authorization is refused (401 expected)',
    requirements: ['AUTH-BEARER-REQUIRED'],
  },
  async ({ check, http, profile }) => {
    const path = protectedPath(profile, check);
    const res = await http.get(path, { label: 'protected operation without Authorization' });
    check.expectUnauthorized(res, `GET ${path} without a bearer credential`, { operation: protectedOperation(profile), effect: GET_EXECUTES_NOTHING });
  },
);

defineCheck(
  {
    id: 'auth.invalid-bearer-is-401',
    title: 'Garbage, tampered and unsigned bearer tokens are refused (401 expected)',
    requirements: ['AUTH-BEARER-INVALID-REJECTED'],
  },
  async ({ check, http, profile }) => {
    const path = protectedPath(profile, check);
    const pair = await issuePair(http, profile);
    const cases: Array<[string, string]> = [
      ['a garbage token', 'garbage-' + crypto.randomUUID()],
      ['an access token with a forged payload', tamperPayload(pair.accessToken)],
      ['an access token with its signature removed', stripSignature(pair.accessToken)],
    ];
    for (const [what, token] of cases) {
      const res = await http.get(path, { bearer: token, label: `protected operation with ${what}` });
      check.expectUnauthorized(res, `GET ${path} with ${what} as bearer credential`, { operation: protectedOperation(profile), effect: GET_EXECUTES_NOTHING });
    }
  },
);

defineCheck(
  {
    id: 'auth.refresh-token-not-bearer',
    title: 'A refresh token presented as bearer credential is rejected',
    requirements: ['AUTH-REFRESH-TOKEN-NOT-BEARER'],
  },
  async ({ check, http, profile }) => {
    const path = protectedPath(profile, check);
    const pair = await issuePair(http, profile);
    const res = await http.get(path, { bearer: pair.refreshToken, label: 'protected operation with the refresh token as bearer' });
    check.expectRefused(res, { operation: 'userDetails', what: 'a refresh token as bearer credential', effect: GET_EXECUTES_NOTHING });
    // A refresh token is not the bearer credential 5 rule 1 names: 401 (unauthorized) is implied, not tied.
    check.judge(refreshTokenRefusalCode, { status: res.status, exchange: res.exchangeId });
  },
);
