// Token endpoint, refresh_token grant (spec 4.1 rule 2, 5 rule 2).
import { defineCheck, isSuccess } from '../../src/check/index.ts';
import { issuePair, postToken, refreshBody, refreshPair } from '../../src/auth/tokens.ts';
import { tamperPayload } from '../../src/auth/jwt.ts';

defineCheck(
  {
    id: 'auth.refresh-renews-access-token',
    title: 'A refresh returns a renewed access token',
    area: 'auth',
    requirements: ['TOKEN-REFRESH-RENEWS'],
    severity: 'MUST',
  },
  async ({ check, http, profile }) => {
    const first = await issuePair(http, profile);
    const res = await postToken(http, refreshBody(profile, first.refreshToken), 'refresh with a fresh refresh token');
    check.expectStatus(res, 200, 'refresh with a fresh refresh token and client_id');
    check.expectSchema(res, 'token-response.schema.json', 'refresh response');
    const renewed = (res.json as { access_token: string }).access_token;
    check.assert(renewed !== first.accessToken, 'the refresh returned the same access token as before, not a renewed one');
  },
);

defineCheck(
  {
    id: 'auth.refresh-token-single-use',
    title: 'A used refresh token is rejected on reuse, and its successor works exactly once',
    area: 'auth',
    requirements: ['TOKEN-REFRESH-SINGLE-USE'],
    severity: 'MUST',
  },
  async ({ check, http, profile }) => {
    const pair = await issuePair(http, profile);
    const renewed = await refreshPair(http, profile, pair.refreshToken, 'first use of the refresh token');
    const reuse = await postToken(http, refreshBody(profile, pair.refreshToken), 'second use of the same refresh token');
    const at = reuse.startedAt.toISOString().slice(11, 19);
    if (isSuccess(reuse.status)) check.fail(`refresh token reused at ${at} was accepted: ${reuse.status}`, { actual: reuse.status, expected: 422 });
    check.expectRejected(reuse, `refresh token reused at ${at}`, [422]);

    check.assert(renewed.refreshToken !== pair.refreshToken, 'the refresh response returned the used refresh token again');
    await refreshPair(http, profile, renewed.refreshToken, 'first use of the renewed refresh token');
    const reuseRenewed = await postToken(http, refreshBody(profile, renewed.refreshToken), 'second use of the renewed refresh token');
    if (isSuccess(reuseRenewed.status)) check.fail(`the renewed refresh token was accepted twice: ${reuseRenewed.status}`, { actual: reuseRenewed.status });
    check.expectRejected(reuseRenewed, 'reuse of the renewed refresh token', [422]);
  },
);

defineCheck(
  {
    id: 'auth.refresh-token-single-use-race',
    title: 'Of simultaneous refreshes with one refresh token at most one succeeds',
    area: 'auth',
    requirements: ['TOKEN-REFRESH-SINGLE-USE-ATOMIC'],
    severity: 'MUST',
  },
  async ({ check, http, profile }) => {
    const n = profile.auth?.concurrency ?? 8;
    const pair = await issuePair(http, profile);
    // One attempt each: retrying a 429 here would serialize the race away.
    const results = await Promise.all(
      Array.from({ length: n }, (_, i) => http.post('/v1/oauth/token', { json: refreshBody(profile, pair.refreshToken), label: `concurrent refresh ${i + 1}/${n}` })),
    );
    const statuses = results.map((r) => r.status);
    const successes = statuses.filter(isSuccess).length;
    check.event('concurrent refreshes answered', statuses.join(', '));
    if (successes > 1) check.fail(`${successes} of ${n} simultaneous refreshes with one refresh token succeeded; at most one may`, { statuses });
    if (statuses.some((s) => s >= 500)) check.fail(`a simultaneous refresh caused a server error (${statuses.join(', ')})`, { statuses });
    if (successes === 0 && statuses.every((s) => s === 429)) check.skip(`every refresh was rate limited (429), so the race was not exercised`);
  },
);

defineCheck(
  {
    id: 'auth.refresh-rejects-invalid-token',
    title: 'The refresh grant rejects tokens that are not valid refresh tokens',
    area: 'auth',
    requirements: ['TOKEN-REFRESH-TOKEN-VALID'],
    severity: 'MUST',
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
      check.expectRejected(res, `refresh with ${what}`, [422]);
    }
  },
);

defineCheck(
  {
    id: 'auth.client-id-required',
    title: 'client_id is required for both grant types',
    area: 'auth',
    requirements: ['TOKEN-CLIENT-ID-REQUIRED'],
    severity: 'MUST',
  },
  async ({ check, http, profile }) => {
    const pair = await issuePair(http, profile);
    const refresh = await postToken(http, { grant_type: 'refresh_token', refresh_token: pair.refreshToken }, 'refresh without client_id');
    check.expectRejected(refresh, 'a refresh without client_id', [422]);
    const cc = await postToken(http, { grant_type: 'client_credentials', client_secret: profile.credentials.clientSecret }, 'client_credentials without client_id');
    check.expectRejected(cc, 'client_credentials without client_id', [422]);
  },
);
