// Token endpoint, client_credentials grant (spec 2.1, 4.1 rule 1, 5).
import { defineCheck } from '../../runner/index.ts';
import { clientCredentialsBody, issuePair, postToken } from '../../src/auth/tokens.ts';
import { decodeJwt, readJwt } from '../../src/auth/jwt.ts';
import { millisecondTimeClaims } from '../../src/auth/numeric-date.ts';
import { jwksSource, loadJwks, verifyWithJwks } from '../../src/auth/jwks.ts';

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
    for (const field of ['access_token', 'refresh_token'] as const) {
      check.assert(typeof body[field] === 'string' && body[field] !== '', `the response carries no ${field}`, { field, actual: body[field] ?? null, exchange: res.exchangeId });
    }
    check.assert(body.access_token !== body.refresh_token, 'the refresh token is the access token: rule 1 requires both an access token and a refresh token', { exchange: res.exchangeId });
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
    check.assert(res.json !== undefined, `token response body is not JSON (${res.jsonError})`, { exchange: res.exchangeId }, { on: 'TOKEN-JSON-BODY' });
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
    for (const [name, token] of [['access_token', pair.accessToken], ['refresh_token', pair.refreshToken]] as const) {
      // 2.1 types both "string (JWT)"; RFC 7519 says what a JWT is: a JWS or a JWE Compact Serialization.
      const jwt = readJwt(token);
      if (typeof jwt === 'string') return check.fail(`${name} is not a JWT: it ${jwt}`, { field: name, exchange: pair.response.exchangeId }, { on: 'RFC7519-1' });
      if (jwt.form === 'JWE') {
        check.note(`${name}: an encrypted JWT (JWE), alg ${String(jwt.header.alg)}, enc ${String(jwt.header.enc)}: its claims are not readable`);
        continue;
      }
      const { header, payload } = jwt.decoded;
      for (const wrong of millisecondTimeClaims(payload, pair.response.startedAt.getTime())) {
        check.fail(
          `${name}'s ${wrong.claim} claim ${wrong.value} counts milliseconds (it names ${wrong.asMilliseconds} only when read so): a NumericDate counts seconds`,
          { field: `${name}.${wrong.claim}`, actual: wrong.value, exchange: pair.response.exchangeId },
          { on: 'RFC7519-2' },
        );
      }
      check.note(`${name}: alg ${String(header.alg)}${header.typ ? `, typ ${String(header.typ)}` : ''}`, { claims: Object.keys(payload) });
    }
  },
);

type ExpiresInUnit = 'seconds' | 'milliseconds';

const inSeconds = (expiresIn: number, unit: ExpiresInUnit) => (unit === 'milliseconds' ? expiresIn / 1000 : expiresIn);

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
    const { exp, iat } = decoded.payload;
    if (typeof exp !== 'number') return check.skip('the access token carries no numeric exp claim');
    if (!Number.isFinite(pair.expiresIn)) return check.skip('expires_in is not a number (the token-response check judges its type)');
    const inMilliseconds = millisecondTimeClaims(decoded.payload, pair.response.startedAt.getTime()).map((c) => c.claim);
    if (inMilliseconds.length) check.notObserved(`the access token's ${inMilliseconds.join(' and ')} count milliseconds, so no lifetime can be read from its claims: see auth.tokens-are-jwts`, { claims: inMilliseconds });
    const issuedAt = typeof iat === 'number' ? iat : Math.floor(pair.response.startedAt.getTime() / 1000);
    const lifetime = exp - issuedAt;
    // Clocks and rounding: a few seconds, or 5 % of a long lifetime.
    const tolerance = Math.max(5, lifetime * 0.05);
    const agreesIn = (unit: ExpiresInUnit) => Math.abs(lifetime - inSeconds(pair.expiresIn, unit)) <= tolerance;
    const declared = profile.auth?.expiresInUnit;
    const observed = { expires_in: pair.expiresIn, declaredUnit: declared ?? null, exp, iat: iat ?? null, lifetimeFromClaims: lifetime };
    if (declared) {
      // 2.1: "Unit: not shown." Only the profile's declaration makes a disagreement a FAIL.
      if (!agreesIn(declared)) {
        check.failDeclared('auth.expiresInUnit', `expires_in ${pair.expiresIn} read in ${declared} (auth.expiresInUnit) disagrees with exp - iat = ${lifetime} s`, observed);
      }
      check.note(`expires_in ${pair.expiresIn} matches exp - iat = ${lifetime} s in the declared unit (${declared})`, observed);
      return;
    }
    const matching = (['seconds', 'milliseconds'] as const).filter(agreesIn);
    check.review(
      matching.length
        ? `expires_in ${pair.expiresIn} matches exp - iat = ${lifetime} s when read in ${matching.join(' or ')}; the spec does not show the unit (set auth.expiresInUnit to declare it)`
        : `expires_in ${pair.expiresIn} matches exp - iat = ${lifetime} s in neither seconds nor milliseconds; the spec does not show the unit (set auth.expiresInUnit to declare it)`,
      observed,
    );
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
    // The spec shows neither the JWKS operation nor which key signs what: the profile's configured set declares it verifies access tokens.
    const accessProblem = await verifyWithJwks(pair.accessToken, jwks);
    if (accessProblem) check.failDeclared(declaredBy, `the access token does not verify against the configured JWK Set: ${accessProblem}`, { keys });
    // A refresh token only ever goes back to its issuer, who may sign it with a key it publishes nowhere.
    const refreshProblem = await verifyWithJwks(pair.refreshToken, jwks);
    check.review(
      refreshProblem
        ? `the access token verifies against the JWK Set (${jwks.keys.length} key(s)); the refresh token does not (${refreshProblem}), which the spec leaves open: only its issuer needs to verify it`
        : `both tokens verify against the JWK Set (${jwks.keys.length} key(s))`,
      { keys },
    );
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
    if (res.status === 401 || res.status === 403) {
      const challenge = res.headers['www-authenticate'] ?? '';
      // 4: every operation "except the token endpoint takes the bearer credential"; 5: whether it requires an Authorization header is not shown.
      if (/\bbearer\b/i.test(challenge)) {
        check.fail(`the token endpoint demanded a bearer credential: ${res.status} with WWW-Authenticate: ${challenge}`, { actual: res.status, challenge });
      }
      check.review(
        `the token endpoint answered ${res.status} without an Authorization header${challenge ? ` (WWW-Authenticate: ${challenge})` : ''}; whether it requires one is not shown (5), and the suite sends none`,
        { actual: res.status, challenge: challenge || null },
      );
      return;
    }
    check.expectStatus(res, 200, 'client_credentials without an Authorization header', { on: 'SPEC-4-1-RULE-1' });
  },
);
