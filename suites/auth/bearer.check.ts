// The bearer credential on protected operations (spec 4 preamble, 5 rules 1-2, 7).
import { defineCheck } from '../../src/check/index.ts';
import { issuePair } from '../../src/auth/tokens.ts';
import { stripSignature, tamperPayload } from '../../src/auth/jwt.ts';
import { protectedPath } from './support.ts';

defineCheck(
  {
    id: 'auth.access-token-opens-api',
    title: 'A freshly issued access token opens a protected operation',
    area: 'auth',
    requirements: ['AUTH-ACCESS-TOKEN-ACCEPTED'],
    severity: 'MUST',
  },
  async ({ check, http, profile }) => {
    const path = protectedPath(profile, check);
    const pair = await issuePair(http, profile);
    const res = await http.get(path, { bearer: pair.accessToken, label: 'protected operation with a fresh access token' });
    if (res.status === 401 || res.status === 403) check.fail(`a freshly issued access token was refused: ${res.status} on GET ${path}`, { actual: res.status });
    check.expectStatus(res, 200, `GET ${path} with a fresh access token`);
  },
);

defineCheck(
  {
    id: 'auth.missing-bearer-is-401',
    title: 'A protected operation without Authorization answers 401',
    area: 'auth',
    requirements: ['AUTH-BEARER-REQUIRED'],
    severity: 'MUST',
  },
  async ({ check, http, profile }) => {
    const path = protectedPath(profile, check);
    const res = await http.get(path, { label: 'protected operation without Authorization' });
    check.expectStatus(res, 401, `GET ${path} without a bearer credential`);
  },
);

defineCheck(
  {
    id: 'auth.invalid-bearer-is-401',
    title: 'Garbage, tampered and unsigned bearer tokens answer 401',
    area: 'auth',
    requirements: ['AUTH-BEARER-INVALID-REJECTED'],
    severity: 'MUST',
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
      if (res.status >= 200 && res.status < 300) check.fail(`${what} was accepted as bearer credential: ${res.status} on GET ${path}`, { actual: res.status });
      check.expectStatus(res, 401, `GET ${path} with ${what}`);
    }
  },
);

defineCheck(
  {
    id: 'auth.refresh-token-not-bearer',
    title: 'A refresh token presented as bearer credential is rejected',
    area: 'auth',
    requirements: ['AUTH-REFRESH-TOKEN-NOT-BEARER'],
    severity: 'MUST',
  },
  async ({ check, http, profile }) => {
    const path = protectedPath(profile, check);
    const pair = await issuePair(http, profile);
    const res = await http.get(path, { bearer: pair.refreshToken, label: 'protected operation with the refresh token as bearer' });
    check.expectRejected(res, 'a refresh token as bearer credential', [401]);
  },
);
