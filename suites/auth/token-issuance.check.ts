// Token endpoint, client_credentials grant (spec 2.1, 4.1 rule 1, 5).
import { defineCheck } from '../../src/check/index.ts';
import { clientCredentialsBody, issuePair, postToken } from '../../src/auth/tokens.ts';
import { decodeJwt } from '../../src/auth/jwt.ts';
import { jwksSource, loadJwks, verifyWithJwks } from '../../src/auth/jwks.ts';

defineCheck(
  {
    id: 'auth.client-credentials-issues-pair',
    title: 'client_credentials issues an access token and a distinct refresh token',
    area: 'auth',
    requirements: ['TOKEN-CC-ISSUES-PAIR'],
    severity: 'MUST',
  },
  async ({ check, http, profile }) => {
    const res = await postToken(http, clientCredentialsBody(profile), 'client_credentials with valid credentials');
    check.expectStatus(res, 200, 'client_credentials with valid credentials');
    const body = (res.json ?? {}) as Record<string, unknown>;
    for (const field of ['access_token', 'refresh_token'] as const) {
      check.assert(typeof body[field] === 'string' && body[field] !== '', `the response carries no ${field}`, { field, actual: body[field] ?? null });
    }
    check.assert(body.access_token !== body.refresh_token, 'the refresh token is the access token: rule 1 requires both an access token and a refresh token');
  },
);

defineCheck(
  {
    id: 'auth.token-response-schema',
    title: 'The token response matches the token-response schema (2.1)',
    area: 'auth',
    requirements: ['TOKEN-RESPONSE-SCHEMA'],
    severity: 'MUST',
  },
  async ({ check, http, profile }) => {
    const res = await postToken(http, clientCredentialsBody(profile), 'client_credentials with valid credentials');
    check.expectStatus(res, 200, 'client_credentials with valid credentials');
    check.expectSchema(res, 'token-response.schema.json', 'token response');
  },
);

defineCheck(
  {
    id: 'auth.token-response-is-json',
    title: 'The token response is labelled application/json',
    area: 'auth',
    requirements: ['TOKEN-JSON-BODY'],
    severity: 'MUST',
  },
  async ({ check, http, profile }) => {
    const res = await postToken(http, clientCredentialsBody(profile), 'client_credentials with valid credentials');
    check.expectStatus(res, 200, 'client_credentials with valid credentials');
    check.expectJsonContentType(res, 'token response');
    check.assert(res.json !== undefined, `token response body is not JSON (${res.jsonError})`);
  },
);

defineCheck(
  {
    id: 'auth.tokens-are-jwts',
    title: 'Access and refresh tokens are JWTs with a decodable header and payload',
    area: 'auth',
    requirements: ['TOKEN-JWT-FORMAT'],
    severity: 'MUST',
  },
  async ({ check, http, profile }) => {
    const pair = await issuePair(http, profile);
    for (const [name, token] of [['access_token', pair.accessToken], ['refresh_token', pair.refreshToken]] as const) {
      const decoded = decodeJwt(token);
      if (typeof decoded === 'string') return check.fail(`${name} is not a JWT: it ${decoded}`, { field: name });
      check.note(`${name}: alg ${String(decoded.header.alg)}${decoded.header.typ ? `, typ ${String(decoded.header.typ)}` : ''}`, {
        claims: Object.keys(decoded.payload),
      });
    }
  },
);

defineCheck(
  {
    id: 'auth.expires-in-agrees-with-exp',
    title: "expires_in agrees with the access token's exp claim",
    area: 'auth',
    requirements: ['TOKEN-EXPIRES-IN'],
    severity: 'REVIEW',
  },
  async ({ check, http, profile }) => {
    const pair = await issuePair(http, profile);
    const decoded = decodeJwt(pair.accessToken);
    if (typeof decoded === 'string') return check.skip(`the access token is not a JWT (${decoded}), so exp cannot be read`);
    const { exp, iat } = decoded.payload;
    if (typeof exp !== 'number') return check.skip('the access token carries no numeric exp claim');
    const unit = profile.auth?.expiresInUnit ?? 'seconds';
    const announcedSeconds = unit === 'milliseconds' ? pair.expiresIn / 1000 : pair.expiresIn;
    const issuedAt = typeof iat === 'number' ? iat : Math.floor(pair.response.startedAt.getTime() / 1000);
    const lifetime = exp - issuedAt;
    const tolerance = Math.max(5, lifetime * 0.05);
    const observed = { expires_in: pair.expiresIn, assumedUnit: unit, exp, iat: iat ?? null, lifetimeFromClaims: lifetime };
    if (Math.abs(lifetime - announcedSeconds) > tolerance) {
      check.fail(`expires_in ${pair.expiresIn} (read as ${unit}) disagrees with exp - iat = ${lifetime} s`, observed);
    }
    check.review(`expires_in ${pair.expiresIn} matches exp - iat = ${lifetime} s when read as ${unit}; the spec does not show the unit`, observed);
  },
);

defineCheck(
  {
    id: 'auth.tokens-verify-against-jwks',
    title: 'Issued tokens verify against the configured JSON Web Key Set',
    area: 'auth',
    requirements: ['TOKEN-JWKS-VERIFIES'],
    severity: 'REVIEW',
  },
  async ({ check, http, profile }) => {
    const source = jwksSource(profile);
    if (!source) return check.skip('no JSON Web Key Set is configured', 'auth.jwksUrl (or auth.jwksFile)');
    const jwks = await loadJwks(source, http);
    const pair = await issuePair(http, profile);
    for (const [name, token] of [['access_token', pair.accessToken], ['refresh_token', pair.refreshToken]] as const) {
      const problem = await verifyWithJwks(token, jwks);
      if (problem) check.fail(`${name} does not verify against the JWK Set: ${problem}`, { keys: jwks.keys.map((k) => k.kid ?? '(no kid)') });
    }
    check.review(`both tokens verify against the JWK Set (${jwks.keys.length} key(s))`);
  },
);

defineCheck(
  {
    id: 'auth.token-endpoint-needs-no-bearer',
    title: 'The token endpoint issues tokens without an Authorization header',
    area: 'auth',
    requirements: ['TOKEN-NO-BEARER-REQUIRED'],
    severity: 'MUST',
  },
  async ({ check, http, profile }) => {
    const res = await postToken(http, clientCredentialsBody(profile), 'client_credentials without any Authorization header');
    if (res.status === 401 || res.status === 403) {
      check.fail(`the token endpoint demanded a credential: ${res.status} without an Authorization header`, { actual: res.status });
    }
    check.expectStatus(res, 200, 'client_credentials without an Authorization header');
  },
);
