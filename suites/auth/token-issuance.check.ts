// Token endpoint, client_credentials grant (spec 2.1, 4.1 rule 1, 5).
import { defineCheck } from '../../runner/index.ts';
import { clientCredentialsBody, issuePair, postToken } from '../../src/auth/tokens.ts';
import { decodeJwt } from '../../src/auth/jwt.ts';
import { jwksSource, loadJwks, verifyWithJwks } from '../../src/auth/jwks.ts';
import { tokenEndpointChallenge, tokenPairIssued, tokenResponseParses } from './token-response-judgments.ts';
import { expiresInAgreesWithExp, readToken, timeClaimsOf, tokensAreJwts, tokensVerifyAgainstJwks } from './token-format-judgments.ts';

defineCheck(
  {
    id: 'auth.client-credentials-issues-pair',
    title: 'client_credentials issues an access token and a distinct refresh token',
    requirements: ['TOKEN-CC-ISSUES-PAIR'],
  },
  async ({ check, http, profile }) => {
    const res = await postToken(http, clientCredentialsBody(profile), 'client_credentials with valid credentials');
    check.expectStatus(res, 200, 'client_credentials with valid credentials');
    const body = (res.json ?? {}) as Record<string, unknown>;
    check.judge(tokenPairIssued, { accessToken: body.access_token ?? null, refreshToken: body.refresh_token ?? null, status: res.status, exchange: res.exchangeId });
  },
);

defineCheck(
  {
    id: 'auth.token-response-schema',
    title: 'The token response matches the token-response schema (2.1)',
    requirements: ['TOKEN-RESPONSE-SCHEMA'],
  },
  async ({ check, http, profile }) => {
    const res = await postToken(http, clientCredentialsBody(profile), 'client_credentials with valid credentials');
    check.expectStatus(res, 200, 'client_credentials with valid credentials', { on: 'SPEC-4-1-RULE-1' });
    check.expectSchema(res, 'token-response.schema.json', 'token response', { on: 'TOKEN-RESPONSE-SCHEMA' });
  },
);

defineCheck(
  {
    id: 'auth.token-response-is-json',
    title: 'The token response is labelled application/json',
    requirements: ['TOKEN-JSON-BODY'],
  },
  async ({ check, http, profile }) => {
    const res = await postToken(http, clientCredentialsBody(profile), 'client_credentials with valid credentials');
    check.expectStatus(res, 200, 'client_credentials with valid credentials', { on: 'SPEC-4-1-RULE-1' });
    check.expectJsonContentType(res, 'token response', { on: 'TOKEN-JSON-BODY' });
    check.judge(tokenResponseParses, { parsed: res.json !== undefined, jsonError: res.jsonError ?? null, status: res.status, exchange: res.exchangeId });
  },
);

defineCheck(
  {
    id: 'auth.tokens-are-jwts',
    title: 'Access and refresh tokens are JWTs with a decodable header and payload',
    requirements: ['TOKEN-JWT-FORMAT'],
  },
  async ({ check, http, profile }) => {
    const pair = await issuePair(http, profile);
    // 2.1 types both "string (JWT)"; RFC 7519 says what a JWT is: a JWS or a JWE Compact Serialization.
    const tokens = [{ name: 'access_token' as const, read: readToken(pair.accessToken) }, { name: 'refresh_token' as const, read: readToken(pair.refreshToken) }];
    check.judge(tokensAreJwts, { tokens, issuedAtMs: pair.response.startedAt.getTime(), status: pair.response.status, exchange: pair.response.exchangeId });
  },
);

defineCheck(
  {
    id: 'auth.expires-in-agrees-with-exp',
    title: "expires_in agrees with the access token's exp claim",
    requirements: ['TOKEN-EXPIRES-IN'],
  },
  async ({ check, http, profile }) => {
    const pair = await issuePair(http, profile);
    const decoded = decodeJwt(pair.accessToken);
    if (typeof decoded === 'string') return check.skip(`the access token is not a JWT (${decoded}), so exp cannot be read`);
    const { exp } = decoded.payload;
    if (typeof exp !== 'number') return check.skip('the access token carries no numeric exp claim');
    if (!Number.isFinite(pair.expiresIn)) return check.skip('expires_in is not a number (the token-response check judges its type)');
    const declaredUnit = (check.declaredValue('auth.expiresInUnit') as 'seconds' | 'milliseconds' | undefined) ?? null;
    check.judge(expiresInAgreesWithExp, { expiresIn: pair.expiresIn, timeClaims: { ...timeClaimsOf(decoded.payload), exp }, issuedAtMs: pair.response.startedAt.getTime(), declaredUnit });
  },
);

defineCheck(
  {
    id: 'auth.tokens-verify-against-jwks',
    title: 'Issued access tokens verify against the configured JSON Web Key Set',
    requirements: ['TOKEN-JWKS-VERIFIES'],
  },
  async ({ check, http, profile, tokens }) => {
    const source = jwksSource(profile);
    if (!source) return check.skip('no JSON Web Key Set is configured', 'auth.jwksUrl (or auth.jwksFile)');
    const declaredBy = source.kind === 'file' ? 'auth.jwksFile' : 'auth.jwksUrl';
    const jwks = await loadJwks(source, http, { access: profile.auth?.jwksAccess, bearer: tokens });
    const pair = await issuePair(http, profile);
    const keys = jwks.keys.map((k) => k.kid ?? '(no kid)');
    const accessProblem = (await verifyWithJwks(pair.accessToken, jwks)) ?? null;
    const refreshProblem = (await verifyWithJwks(pair.refreshToken, jwks)) ?? null;
    const declaredValue = (check.declaredValue(declaredBy) as string | undefined) ?? null;
    check.judge(tokensVerifyAgainstJwks, { declaredBy, declaredValue, keys, accessProblem, refreshProblem });
  },
);

defineCheck(
  {
    id: 'auth.token-endpoint-needs-no-bearer',
    title: 'The token endpoint issues tokens without a bearer credential',
    requirements: ['TOKEN-NO-BEARER-REQUIRED'],
  },
  async ({ check, http, profile }) => {
    const res = await postToken(http, clientCredentialsBody(profile), 'client_credentials without any Authorization header');
    // 4: every operation "except the token endpoint takes the bearer credential"; 5: whether it requires an Authorization header is not shown.
    if (res.status === 401 || res.status === 403) return check.judge(tokenEndpointChallenge, { status: res.status, challenge: res.headers['www-authenticate'] ?? '' });
    check.expectStatus(res, 200, 'client_credentials without an Authorization header', { on: 'SPEC-4-1-RULE-1' });
  },
);
