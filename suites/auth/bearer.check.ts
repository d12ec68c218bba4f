// The bearer credential on protected operations (spec 4 preamble, 5 rules 1-2, 7).
// 401 is the code a missing or invalid bearer credential gets: it is the one
// code of the operation's section 7 list named "unauthorized".
import { defineCheck, type CheckContext, type HttpClient } from '../../src/check/index.ts';
import { issuePair, renewTokens } from '../../src/auth/tokens.ts';
import { stripSignature, tamperPayload } from '../../src/auth/jwt.ts';
import { documentedRefusals } from '../../src/spec/status-codes.ts';
import { protectedPath } from './support.ts';

/** A GET of the protected operation with an access token the token endpoint issued: it must be let in. */
async function expectAccessTokenAccepted(check: CheckContext, http: HttpClient, path: string, accessToken: string, how: string): Promise<void> {
  const res = await http.get(path, { bearer: accessToken, label: `protected operation with ${how}` });
  if (res.status === 401 || res.status === 403) check.fail(`${how} was refused: ${res.status} on GET ${path}`, { actual: res.status });
  check.expectStatus(res, 200, `GET ${path} with ${how}`);
}

defineCheck(
  {
    id: 'auth.access-token-opens-api',
    title: 'A freshly issued access token opens a protected operation',
    requirements: ['AUTH-ACCESS-TOKEN-ACCEPTED'],
  },
  async ({ check, http, profile }) => {
    const path = protectedPath(profile, check);
    const pair = await issuePair(http, profile);
    await expectAccessTokenAccepted(check, http, path, pair.accessToken, 'a freshly issued access token');
  },
);

defineCheck(
  {
    id: 'auth.refreshed-access-token-opens-api',
    title: 'An access token issued by a refresh opens a protected operation',
    requirements: ['AUTH-ACCESS-TOKEN-ACCEPTED'],
  },
  async ({ check, http, profile }) => {
    const path = protectedPath(profile, check);
    const pair = await issuePair(http, profile);
    const renewed = await renewTokens(http, profile, pair.refreshToken, 'refresh for a renewed access token');
    await expectAccessTokenAccepted(check, http, path, renewed.accessToken, 'the access token a refresh issued');
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
    check.expectUnauthorized(res, `GET ${path} without a bearer credential`);
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
      check.expectUnauthorized(res, `GET ${path} with ${what} as bearer credential`);
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
    check.expectRefused(res, { operation: 'userDetails', what: 'a refresh token as bearer credential' });
    // A refresh token is not the bearer credential 5 rule 1 names: 401 (unauthorized) is implied, not tied.
    if (res.status !== 401 && documentedRefusals('userDetails').includes(res.status)) check.warn(`a refresh token as bearer credential was refused with ${res.status}; 401 (unauthorized) is the code for a credential that is not an access token`, { expected: 401, actual: res.status });
  },
);
