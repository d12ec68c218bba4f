// The model of the token lifecycle (spec 4.1, 2.1, 5, 7), explored.
//
// A case is a short sequence of steps (plain JSON, at most six): obtain a
// pair with client_credentials; refresh with the newest refresh token (at
// once, or a whole second after it was issued) or with a used one;
// simultaneous refreshes with the newest; a refresh with something that is
// no refresh token of the client (garbage, a forged copy, an access token,
// none), without client_id, with another registered client's id or with a
// client_id of another type; a protected GET with the newest access token,
// an older one, a refresh token, a forged or unsigned one, garbage or none;
// a token request with a parameter error; the newest tokens verified
// against the configured JWK Set. A step that needs a token the case does
// not hold yet obtains a pair first. The model (tokens-state.ts) tracks each
// token's standing, so each step knows what the spec allows:
//
//   - client_credentials with the client's credentials: 200 with a pair
//     (4.1 rule 1), without any Authorization header (4);
//   - every 2xx of the token endpoint: the token response of 2.1, JSON, its
//     tokens JWTs (RFC 7519), expires_in agreeing with exp in the unit the
//     profile declares (else recorded);
//   - a refresh with a fresh token of a pair: 200 with a renewed access
//     token — told from the one before only a whole second after the pair
//     was issued (a deterministic signer gives the same token until then);
//     with a fresh token a refresh handed out: its first use works (2.1);
//     with a used token: refused, and no tokens (5 rule 2); simultaneous
//     refreshes: at most one succeeds;
//   - a refresh with no valid refresh token, without client_id, a token
//     request without or with an unknown grant_type, without client_id, with
//     a wrong or no client_secret: refused, with the codes 7 lists for the
//     endpoint (another 4xx a WARN, a 5xx judged by what it did:
//     src/check/server-error.ts); a parameter error refused otherwise than
//     422 is a WARN (7, a SHOULD); another client's id refused is a SHOULD;
//     a client_id of another type is bad input, never a 5xx that spent the
//     token;
//   - the newest trusted access token is let in (5 rules 1-2); a refresh
//     token, a forged, unsigned or garbage token, or none, refused;
//   - the access token verifies against the configured JWK Set (declared).
// Recorded, never judged: what a token whose standing the spec leaves open
// gets (tokens-state.ts says which and why: after a reuse, a race, a refused
// presentation, a later pair), an older access token refused, an access
// token refused once it may have run out, a renewal within the second.
import fc from 'fast-check';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ResolvedProfile } from '../../src/config/profile.ts';
import { clockOf, isServerError, isSuccess } from '../../src/check/context.ts';
import { TransportError, type HttpResponse } from '../../src/http/client.ts';
import { GET_EXECUTES_NOTHING } from '../../src/check/server-error.ts';
import { TOKEN_PATH, clientCredentialsBody, earliestExpiryMs, postToken, refreshBody } from '../../src/auth/tokens.ts';
import { decodeJwt, stripSignature, tamperPayload } from '../../src/auth/jwt.ts';
import { JwksUnavailable, jwksSource, loadJwks, verifyWithJwks, type JwksSource } from '../../src/auth/jwks.ts';
import type { SpecOperation } from '../../src/spec/status-codes.ts';
import { protectedOperation } from '../../suites/auth/support.ts';
import { refreshRequestEffect, tokenRequestEffect } from '../../suites/auth/refusal-effect.ts';
import { RENEWAL_GAP_MS, receivedAt, tokenClock } from '../../suites/auth/refresh-renewal.ts';
import { renewalAfterClockMoved, reuseAccepted, successorFirstUse } from '../../suites/auth/refresh-judgments.ts';
import { countRace, racersOf, refreshRace, type RacerResult } from '../../suites/auth/refresh-race.ts';
import { tokenEndpointChallenge, tokenPairIssued, tokenResponseParses } from '../../suites/auth/token-response-judgments.ts';
import { expiresInAgreesWithExp, readToken, timeClaimsOf, tokensAreJwts, tokensVerifyAgainstJwks } from '../../suites/auth/token-format-judgments.ts';
import { malformedRequestAnswer, parameterErrorsAre422 } from '../../suites/auth/parameter-judgments.ts';
import { accessTokenLetIn, refreshTokenRefusalCode } from '../../suites/auth/bearer-judgments.ts';
import { defineExploreRule } from '../rule.ts';
import type { AreaExplorer, AreaModel, Unexplorable } from '../model.ts';
import type { CaseRun } from '../case-run.ts';
import { TokenLifecycle, mayHaveRunOut, refreshExpectation, type AccessToken, type RefreshToken } from './tokens-state.ts';
import { recordedAccessToken, unsettledRefresh } from './tokens-judgments.ts';

export const RULES = {
  pairIssued: defineExploreRule({
    id: 'explore.auth.client-credentials-issues-pair',
    title: 'Generated client_credentials requests with the client\'s credentials are answered 200 with an access token and a distinct refresh token',
    requirements: ['TOKEN-CC-ISSUES-PAIR'],
  }),
  responseSchema: defineExploreRule({
    id: 'explore.auth.token-response-schema',
    title: 'Every 2xx of the token endpoint to a generated request holds the token response of 2.1',
    requirements: ['TOKEN-RESPONSE-SCHEMA'],
  }),
  responseIsJson: defineExploreRule({
    id: 'explore.auth.token-response-is-json',
    title: 'Every 2xx of the token endpoint to a generated request is JSON, labelled application/json',
    requirements: ['TOKEN-JSON-BODY'],
  }),
  tokensAreJwts: defineExploreRule({
    id: 'explore.auth.tokens-are-jwts',
    title: 'Every token the token endpoint hands out to a generated request is a JWT whose time claims count seconds',
    requirements: ['TOKEN-JWT-FORMAT'],
  }),
  expiresIn: defineExploreRule({
    id: 'explore.auth.expires-in-agrees-with-exp',
    title: "Every expires_in the token endpoint gives agrees with its access token's exp (in the declared unit)",
    requirements: ['TOKEN-EXPIRES-IN'],
  }),
  jwks: defineExploreRule({
    id: 'explore.auth.tokens-verify-against-jwks',
    title: 'Access tokens issued along generated token lifecycles verify against the configured JWK Set',
    requirements: ['TOKEN-JWKS-VERIFIES'],
  }),
  refreshRenews: defineExploreRule({
    id: 'explore.auth.refresh-renews',
    title: 'A refresh with a fresh refresh token of a pair is answered 200 with a renewed access token, whatever steps came before',
    requirements: ['TOKEN-REFRESH-RENEWS'],
  }),
  singleUse: defineExploreRule({
    id: 'explore.auth.refresh-single-use',
    title: 'A used refresh token is refused and issues nothing; a refresh token a refresh handed out works on its first use',
    requirements: ['TOKEN-REFRESH-SINGLE-USE'],
  }),
  race: defineExploreRule({
    id: 'explore.auth.refresh-race',
    title: 'Of simultaneous refreshes with one refresh token, at any point of a generated lifecycle, at most one succeeds',
    requirements: ['TOKEN-REFRESH-SINGLE-USE-ATOMIC'],
  }),
  clientBound: defineExploreRule({
    id: 'explore.auth.refresh-bound-to-client',
    title: "A fresh refresh token presented with another registered client's client_id is refused",
    requirements: ['TOKEN-REFRESH-CLIENT-BOUND'],
  }),
  invalidRefresh: defineExploreRule({
    id: 'explore.auth.invalid-refresh-refused',
    title: 'Refreshes with garbage, a forged refresh token, an access token or no refresh token are refused',
    requirements: ['TOKEN-REFRESH-TOKEN-VALID'],
  }),
  grantType: defineExploreRule({
    id: 'explore.auth.grant-type-required',
    title: 'Token requests without grant_type, or with another value than the two of 4.1, are refused',
    requirements: ['TOKEN-GRANT-TYPE-REQUIRED'],
  }),
  clientId: defineExploreRule({
    id: 'explore.auth.client-id-required',
    title: 'Token requests of either grant without client_id are refused',
    requirements: ['TOKEN-CLIENT-ID-REQUIRED'],
  }),
  clientSecret: defineExploreRule({
    id: 'explore.auth.client-secret-verified',
    title: 'client_credentials with a wrong or no client_secret is refused',
    requirements: ['TOKEN-CLIENT-SECRET-VERIFIED'],
  }),
  parameterErrors: defineExploreRule({
    id: 'explore.auth.parameter-errors-are-422',
    title: 'Generated token requests with a parameter error that are refused are answered 422',
    requirements: ['TOKEN-PARAMETER-ERROR-422'],
  }),
  badInput: defineExploreRule({
    id: 'explore.auth.bad-input-no-server-error',
    title: 'A refresh whose client_id is not a string is refused, never a server error that spent the refresh token',
    requirements: ['TOKEN-NO-SERVER-ERROR-ON-BAD-INPUT'],
  }),
  noBearer: defineExploreRule({
    id: 'explore.auth.token-endpoint-needs-no-bearer',
    title: 'The token endpoint issues pairs without a bearer credential',
    requirements: ['TOKEN-NO-BEARER-REQUIRED'],
  }),
  accessAccepted: defineExploreRule({
    id: 'explore.auth.access-token-accepted',
    title: 'The newest access token of a generated lifecycle, from a pair or a refresh, opens a protected operation',
    requirements: ['AUTH-ACCESS-TOKEN-ACCEPTED'],
  }),
  bearerRequired: defineExploreRule({
    id: 'explore.auth.bearer-required',
    title: 'A protected operation without a bearer credential is refused (401 expected)',
    requirements: ['AUTH-BEARER-REQUIRED'],
  }),
  invalidBearer: defineExploreRule({
    id: 'explore.auth.invalid-bearer-refused',
    title: 'Garbage, forged and unsigned bearer tokens are refused (401 expected)',
    requirements: ['AUTH-BEARER-INVALID-REJECTED'],
  }),
  refreshNotBearer: defineExploreRule({
    id: 'explore.auth.refresh-token-not-bearer',
    title: 'A refresh token presented as a bearer credential is refused, whatever its standing',
    requirements: ['AUTH-REFRESH-TOKEN-NOT-BEARER'],
  }),
};

/** Token requests with a parameter error of 4.1's field table. */
export type BadRequest = 'no-grant-type' | 'unknown-grant-type' | 'cc-without-client-id' | 'wrong-secret' | 'no-secret';

// A step names the token it sends in `with`, never `token`: the redactor hides every value of a key so named, and a replay file would lose it.
export type Step =
  | { op: 'obtain' }
  /** A refresh with the own client_id; `wait`: not before a whole second after the token was issued. */
  | { op: 'refresh'; with: 'newest' | 'used'; pick: number; wait: boolean }
  | { op: 'race' }
  | { op: 'invalid-refresh'; with: 'garbage' | 'forged' | 'access-token' | 'absent' }
  | { op: 'refresh-client'; client: 'absent' | 'other' | 'malformed' }
  | { op: 'bearer'; with: 'newest' | 'older' | 'refresh' | 'absent' | 'garbage' | 'forged' | 'unsigned'; pick: number }
  | { op: 'bad-request'; request: BadRequest; grantType?: string }
  | { op: 'jwks' };

export interface TokensCase {
  steps: Step[];
}

/** The most steps a case takes. */
export const MAX_STEPS = 6;

/** Added to RENEWAL_GAP_MS when a step waits for the issuer's clock to move. */
const WAIT_MARGIN_MS = 25;

/** Simultaneous refreshes in a race: a few, never more than the profile's auth.concurrency. */
const MAX_RACERS = 4;

/** grant_type values 4.1 does not list: another grant of OAuth, none at all in a string, a near miss. */
const UNKNOWN_GRANT_TYPES = ['password', 'authorization_code', '', 'client-credentials', 'refresh'] as const;

/** The parameter errors of 4.1 that 7's "422 (parameter error)" names, as the hand-written check sends them (no client_secret, a wrong one: which code a client authentication failure gets is not tied). */
const PARAMETER_ERRORS: ReadonlySet<string> = new Set(['no-grant-type', 'unknown-grant-type', 'cc-without-client-id', 'invalid-refresh:absent']);

interface Setup {
  profile: ResolvedProfile;
  /** The protected GET (auth.protectedPath, else user details of users.existingUserId), when the profile names one. */
  protectedPath?: string;
  protectedOperation?: SpecOperation;
  otherClientId?: string;
  jwks?: JwksSource;
  racers: number;
  pacer: Pacer;
}

/**
 * Keeps token requests below the rate limit the profile documents
 * (load.tokenRateLimit: expectedRps, burst), as a token bucket of 80 % of
 * both: a case never meets the limiter, and the requests a wait saved go at
 * once. Without a documented rate no pace is kept; the client waits out a
 * 429 as Retry-After asks (src/http/transient.ts).
 */
export class Pacer {
  private level: number;
  private at = Date.now();

  constructor(
    /** Requests per second, sustained (0: no pace). */
    private readonly rate: number,
    private readonly capacity: number,
  ) {
    this.level = capacity;
  }

  static forProfile(profile: ResolvedProfile): Pacer {
    const limit = profile.load?.tokenRateLimit;
    const rps = limit?.expectedRps;
    if (!rps || rps <= 0) return new Pacer(0, 0);
    return new Pacer(0.8 * rps, Math.max(1, Math.floor(0.8 * (limit.burst ?? 1))));
  }

  /** Waits until `n` requests may go. */
  async take(n = 1): Promise<void> {
    if (!this.rate) return;
    const now = Date.now();
    this.level = Math.min(this.capacity, this.level + ((now - this.at) * this.rate) / 1000);
    this.at = now;
    this.level -= n;
    if (this.level < 0) await sleep(Math.ceil((-this.level * 1000) / this.rate));
  }
}

function stepArbitrary(setup: Pick<Setup, 'protectedPath' | 'otherClientId' | 'jwks'>): fc.Arbitrary<Step> {
  const pick = fc.nat({ max: 7 });
  // Rare (a wait costs a second), and shrunk away first where the case does without it (cross-shrinking to the first choice).
  const wait = fc.oneof({ withCrossShrink: true }, { weight: 20, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) });
  const clients: Array<Extract<Step, { op: 'refresh-client' }>['client']> = ['absent', 'malformed', ...(setup.otherClientId ? (['other'] as const) : [])];
  const badRequest = fc.oneof(
    fc.constantFrom<BadRequest>('no-grant-type', 'cc-without-client-id', 'wrong-secret', 'no-secret').map((request): Step => ({ op: 'bad-request', request })),
    fc.constantFrom(...UNKNOWN_GRANT_TYPES).map((grantType): Step => ({ op: 'bad-request', request: 'unknown-grant-type', grantType })),
  );
  const steps: Array<fc.WeightedArbitrary<Step>> = [
    { weight: 3, arbitrary: fc.constant<Step>({ op: 'obtain' }) },
    { weight: 6, arbitrary: fc.record({ op: fc.constant('refresh' as const), with: fc.constantFrom('newest' as const, 'used' as const), pick, wait }).map((r): Step => ({ ...r })) },
    { weight: 1, arbitrary: fc.constant<Step>({ op: 'race' }) },
    { weight: 2, arbitrary: fc.constantFrom('garbage' as const, 'forged' as const, 'access-token' as const, 'absent' as const).map((which): Step => ({ op: 'invalid-refresh', with: which })) },
    { weight: 2, arbitrary: fc.constantFrom(...clients).map((client): Step => ({ op: 'refresh-client', client })) },
    { weight: 2, arbitrary: badRequest },
  ];
  if (setup.protectedPath) {
    // The newest access token most often: whether the lifecycle so far left it live is what the model knows best.
    const bearer = fc.oneof(
      { withCrossShrink: true },
      { weight: 4, arbitrary: fc.constant('newest' as const) },
      { weight: 4, arbitrary: fc.constantFrom('older' as const, 'refresh' as const, 'absent' as const, 'garbage' as const, 'forged' as const, 'unsigned' as const) },
    );
    steps.push({ weight: 5, arbitrary: fc.record({ op: fc.constant('bearer' as const), with: bearer, pick }).map((r): Step => ({ ...r })) });
  }
  if (setup.jwks) steps.push({ weight: 1, arbitrary: fc.constant<Step>({ op: 'jwks' }) });
  // fc.record makes objects without a prototype: spread into plain ones, as a replay file reads them back.
  return fc.oneof(...steps);
}

export function caseArbitrary(setup: Pick<Setup, 'protectedPath' | 'otherClientId' | 'jwks'>): fc.Arbitrary<TokensCase> {
  return fc.array(stepArbitrary(setup), { minLength: 1, maxLength: MAX_STEPS }).map((steps) => ({ steps }));
}

const BAD_REQUEST_WORDS: Record<BadRequest, string> = {
  'no-grant-type': 'a token request without grant_type',
  'unknown-grant-type': 'a token request with grant_type',
  'cc-without-client-id': 'client_credentials without client_id',
  'wrong-secret': 'client_credentials with a wrong client_secret',
  'no-secret': 'client_credentials without client_secret',
};

const BEARER_WORDS: Record<Extract<Step, { op: 'bearer' }>['with'], string> = {
  newest: 'the newest access token',
  older: 'an older access token',
  refresh: 'the newest refresh token',
  absent: 'no bearer credential',
  garbage: 'a garbage bearer token',
  forged: 'the newest access token with a forged payload',
  unsigned: 'the newest access token with its signature removed',
};

const INVALID_REFRESH_WORDS: Record<Extract<Step, { op: 'invalid-refresh' }>['with'], string> = {
  garbage: 'a random string as refresh_token',
  forged: 'the newest refresh token with a forged payload',
  'access-token': 'the newest access token as refresh_token',
  absent: 'no refresh_token',
};

const CLIENT_WORDS: Record<Extract<Step, { op: 'refresh-client' }>['client'], string> = {
  absent: 'refresh with the newest refresh token without client_id',
  other: "refresh with the newest refresh token and another registered client's client_id",
  malformed: 'refresh with the newest refresh token and client_id as an object',
};

export function describeStep(step: Step): string {
  switch (step.op) {
    case 'obtain':
      return 'obtain a token pair (client_credentials)';
    case 'refresh':
      return `refresh with ${step.with === 'newest' ? 'the newest refresh token' : 'a used refresh token'}${step.wait ? ', a whole second after it was issued' : ''}`;
    case 'race':
      return 'simultaneous refreshes with the newest refresh token';
    case 'invalid-refresh':
      return `refresh with ${INVALID_REFRESH_WORDS[step.with]}`;
    case 'refresh-client':
      return CLIENT_WORDS[step.client];
    case 'bearer':
      return `protected GET with ${BEARER_WORDS[step.with]}`;
    case 'bad-request':
      return step.request === 'unknown-grant-type' ? `${BAD_REQUEST_WORDS[step.request]} ${JSON.stringify(step.grantType ?? '')}` : BAD_REQUEST_WORDS[step.request];
    case 'jwks':
      return 'verify the newest tokens against the JWK Set';
  }
}

export function describeCase(c: TokensCase): string {
  return c.steps.map(describeStep).join('; ');
}

/** The case without its values (which used token, which unknown grant_type): of the cases for a human, one of each kind is kept. */
export function kindOfCase(c: TokensCase): string {
  return c.steps
    .map((s) => {
      switch (s.op) {
        case 'refresh':
          return `refresh ${s.with}${s.wait ? ' later' : ''}`;
        case 'invalid-refresh':
          return `refresh ${s.with}`;
        case 'refresh-client':
          return `refresh client ${s.client}`;
        case 'bearer':
          return `bearer ${s.with}`;
        case 'bad-request':
          return s.request;
        default:
          return s.op;
      }
    })
    .join(', ');
}

/** One case's run: the setup, the case's run and the tokens it holds. */
interface Lifecycle {
  setup: Setup;
  run: CaseRun;
  tokens: TokenLifecycle;
}

const bodyOf = (res: HttpResponse): Record<string, unknown> => (res.json && typeof res.json === 'object' && !Array.isArray(res.json) ? (res.json as Record<string, unknown>) : {});
const tokenIn = (res: HttpResponse, field: 'access_token' | 'refresh_token'): string | undefined => {
  const value = bodyOf(res)[field];
  return typeof value === 'string' && value !== '' ? value : undefined;
};
const exchangeOf = (res: HttpResponse) => (res.exchangeId !== undefined ? { exchange: res.exchangeId } : {});

async function postTokenPaced(lc: Lifecycle, body: unknown, label: string): Promise<HttpResponse> {
  await lc.setup.pacer.take();
  return postToken(lc.run.http, body, label);
}

/** REFRESH_RESPONSE_SCHEMA of suites/auth/refresh.check.ts: a refresh need not carry a refresh token (4.1 rule 2). */
const REFRESH_RESPONSE_SCHEMA = 'token-response.schema.json#/$defs/refreshResponse';
const TOKEN_RESPONSE_SCHEMA = 'token-response.schema.json';

/** What every 2xx of the token endpoint is held to, whatever it answered: 2.1's token response, JSON, JWTs, expires_in. */
function judgeTokenAnswer(lc: Lifecycle, res: HttpResponse, what: string, grant: 'client_credentials' | 'refresh'): void {
  if (!isSuccess(res.status)) return;
  const { run } = lc;
  const answer = `the ${res.status} answer to ${what}`;
  run.judge(RULES.responseSchema.id, (check) => check.expectSchema(res, grant === 'refresh' ? REFRESH_RESPONSE_SCHEMA : TOKEN_RESPONSE_SCHEMA, answer));
  run.judge(RULES.responseIsJson.id, (check) => {
    check.expectJsonContentType(res, answer);
    check.judge(tokenResponseParses, { parsed: res.json !== undefined, jsonError: res.jsonError ?? null, status: res.status, exchange: res.exchangeId });
  });
  const access = tokenIn(res, 'access_token');
  const refresh = tokenIn(res, 'refresh_token');
  const tokens = [
    ...(access === undefined ? [] : [{ name: 'access_token' as const, read: readToken(access) }]),
    ...(refresh === undefined ? [] : [{ name: 'refresh_token' as const, read: readToken(refresh) }]),
  ];
  if (tokens.length) run.judge(RULES.tokensAreJwts.id, (check) => check.judge(tokensAreJwts, { tokens, issuedAtMs: res.startedAt.getTime(), status: res.status, exchange: res.exchangeId }));
  const expiresIn = Number(bodyOf(res).expires_in);
  const decoded = access === undefined ? undefined : decodeJwt(access);
  if (decoded && typeof decoded !== 'string' && typeof decoded.payload.exp === 'number' && Number.isFinite(expiresIn)) {
    const timeClaims = { ...timeClaimsOf(decoded.payload), exp: decoded.payload.exp };
    const declaredUnit = (run.declaredValue('auth.expiresInUnit') as 'seconds' | 'milliseconds' | undefined) ?? null;
    run.judge(RULES.expiresIn.id, (check) => check.judge(expiresInAgreesWithExp, { expiresIn, timeClaims, issuedAtMs: res.startedAt.getTime(), declaredUnit }));
  }
}

/** The tokens of a 2xx that carries an access token, kept in the model; undefined when it carries none. */
function keepIssued(lc: Lifecycle, res: HttpResponse, askedAt: number, grant: 'client_credentials' | 'refresh', parent: RefreshToken | undefined, granted: boolean, why?: string) {
  const accessToken = tokenIn(res, 'access_token');
  if (!isSuccess(res.status) || accessToken === undefined) return undefined;
  const refreshToken = tokenIn(res, 'refresh_token');
  return lc.tokens.issued({
    grant,
    accessToken,
    ...(refreshToken === undefined ? {} : { refreshToken }),
    expiresIn: Number(bodyOf(res).expires_in),
    askedAt,
    receivedAt: receivedAt(res),
    ...(parent ? { parent } : {}),
    granted,
    ...(why ? { why } : {}),
  });
}

/** client_credentials with the client's credentials, without Authorization: 200 with a pair (4.1 rule 1, 4). */
async function obtain(lc: Lifecycle, what: string): Promise<void> {
  const { run, setup } = lc;
  const askedAt = Date.now();
  const res = await postTokenPaced(lc, clientCredentialsBody(setup.profile), what);
  if (res.status === 401 || res.status === 403) {
    // 4: the token endpoint takes no bearer credential; whether it requires some Authorization header is not shown (5).
    run.judge(RULES.noBearer.id, (check) => check.judge(tokenEndpointChallenge, { status: res.status, challenge: res.headers['www-authenticate'] ?? '' }));
    return;
  }
  if (isSuccess(res.status)) run.judge(RULES.noBearer.id, (check) => check.note(`${what} was answered ${res.status} without an Authorization header`));
  run.judge(RULES.pairIssued.id, (check) => {
    check.expectStatus(res, 200, what);
    const body = bodyOf(res);
    check.judge(tokenPairIssued, { accessToken: body.access_token ?? null, refreshToken: body.refresh_token ?? null, status: res.status, exchange: res.exchangeId });
  });
  judgeTokenAnswer(lc, res, what, 'client_credentials');
  keepIssued(lc, res, askedAt, 'client_credentials', undefined, true);
}

/** The newest refresh token, a pair obtained first when the case holds none. */
async function newestRefresh(lc: Lifecycle): Promise<RefreshToken | undefined> {
  if (!lc.tokens.newestRefresh()) await obtain(lc, 'obtain a token pair (client_credentials) for the next step');
  return lc.tokens.newestRefresh();
}

async function newestAccess(lc: Lifecycle): Promise<AccessToken | undefined> {
  if (!lc.tokens.newestAccess()) await obtain(lc, 'obtain a token pair (client_credentials) for the next step');
  return lc.tokens.newestAccess();
}

const standingWords = (token: RefreshToken) => `refresh token ${token.id}, ${token.standing}${token.why ? `: ${token.why}` : ''}`;

/** A refresh with the own client_id, judged by the token's standing. */
async function refresh(lc: Lifecycle, token: RefreshToken, step: Extract<Step, { op: 'refresh' }>): Promise<void> {
  const { run, setup, tokens } = lc;
  // A timer may fire a millisecond before Date.now() says it is due: a margin, so the refresh is surely a whole second on.
  if (step.wait) await sleep(Math.max(0, token.receivedAt + RENEWAL_GAP_MS + WAIT_MARGIN_MS - Date.now()));
  const expectation = refreshExpectation(token);
  const what = `${describeStep(step)} (${standingWords(token)})`;
  const askedAt = Date.now();
  const res = await postTokenPaced(lc, refreshBody(setup.profile, token.value), what);
  const at = clockOf(res);
  const accepted = isSuccess(res.status) && tokenIn(res, 'access_token') !== undefined;
  switch (expectation) {
    case 'renews':
      run.judge(RULES.refreshRenews.id, (check) => check.expectStatus(res, 200, what));
      break;
    case 'first-use-of-successor': {
      const parent = tokens.refreshById(token.parent)!;
      run.judge(RULES.singleUse.id, (check) => check.judge(successorFirstUse, { used: parent.value, successor: token.value, status: res.status, exchange: res.exchangeId, at }));
      break;
    }
    case 'refused':
      run.judge(RULES.singleUse.id, (check) => {
        check.judge(reuseAccepted, { which: token.issuedBy === 'client_credentials' ? 'used-once' : 'issued-by-refresh', status: res.status, exchange: res.exchangeId, at });
        check.expectRefused(res, { operation: 'token', what: `${what} (reused at ${at})`, effect: tokenRequestEffect(res, 'TOKEN-REFRESH-SINGLE-USE') });
      });
      break;
    case 'open':
      run.judge(RULES.singleUse.id, (check) => check.judge(unsettledRefresh, { what, status: res.status, ...exchangeOf(res), why: token.why ?? 'not shown' }));
      break;
  }
  judgeTokenAnswer(lc, res, what, 'refresh');
  if (accepted && (expectation === 'renews' || expectation === 'first-use-of-successor')) judgeRenewal(lc, token, res, what);
  if (accepted) {
    const wasUsed = token.standing === 'used';
    tokens.used(token);
    keepIssued(lc, res, askedAt, 'refresh', token, !wasUsed, wasUsed ? 'issued by a refresh with a used refresh token' : undefined);
  } else tokens.presentationFailed(token, `a refresh with it was answered ${res.status}`);
}

/**
 * The renewed access token against the one issued with the refresh token:
 * told apart only a whole second after that one was issued (a deterministic
 * signer without a jti gives the same token for the same claims until its
 * clock moves: suites/auth/refresh-renewal.ts).
 */
function judgeRenewal(lc: Lifecycle, token: RefreshToken, res: HttpResponse, what: string): void {
  const before = lc.tokens.accessById(token.companion);
  const renewed = tokenIn(res, 'access_token')!;
  if (!before) return;
  const gapMs = Math.round(res.startedAt.getTime() - token.receivedAt);
  if (gapMs >= RENEWAL_GAP_MS) {
    const clock = tokenClock(renewed);
    lc.run.judge(RULES.refreshRenews.id, (check) =>
      check.judge(renewalAfterClockMoved, { gapMs, issuedAccessToken: before.value, renewedAccessToken: renewed, iat: clock.iat ?? null, exp: clock.exp ?? null, status: res.status, exchange: res.exchangeId }),
    );
  } else if (renewed === before.value) {
    lc.run.judge(RULES.refreshRenews.id, (check) =>
      check.note(`${what} ${gapMs} ms after the token was issued returned a byte-identical access token: a signer without a jti gives that until its clock moves, so a renewal is told apart only a whole second later`, { gapMs, ...exchangeOf(res) }),
    );
  }
}

/** Simultaneous refreshes with the newest refresh token, each sent once (asking a 429 again would serialize the race away). */
async function race(lc: Lifecycle, token: RefreshToken, what: string): Promise<void> {
  const { run, setup, tokens } = lc;
  const n = setup.racers;
  await setup.pacer.take(n);
  const askedAt = Date.now();
  const results = await Promise.all(
    Array.from({ length: n }, async (_, i): Promise<RacerResult & { res?: HttpResponse }> => {
      try {
        const res = await run.http.post(TOKEN_PATH, { json: refreshBody(setup.profile, token.value), label: `${what}: concurrent refresh ${i + 1}/${n} (${standingWords(token)})`, once: true });
        return { answer: res, res };
      } catch (error) {
        if (error instanceof TransportError) return { failure: error.kind };
        throw error;
      }
    }),
  );
  const racers = racersOf(results);
  run.judge(RULES.race.id, (check) => {
    check.event('concurrent refreshes answered', countRace(racers).outcomes.join(', '));
    check.judge(refreshRace, { racers });
  });
  const answers = results.flatMap((r) => (r.res ? [r.res] : []));
  for (const res of answers) judgeTokenAnswer(lc, res, `${what} (${standingWords(token)})`, 'refresh');
  const winners = answers.filter((res) => isSuccess(res.status) && tokenIn(res, 'access_token') !== undefined);
  if (token.standing === 'used' && winners[0]) {
    const res = winners[0];
    run.judge(RULES.singleUse.id, (check) => check.judge(reuseAccepted, { which: token.issuedBy === 'client_credentials' ? 'used-once' : 'issued-by-refresh', status: res.status, exchange: res.exchangeId, at: clockOf(res) }));
  }
  // Only racers the service said it did not handle (429, 503) leave the token as it was; one without an answer may have been handled.
  if (racers.every((r) => 'status' in r && (r.status === 429 || r.status === 503))) return;
  // The losers presented a token their winner had used: a reuse, which may revoke the family (not shown).
  if (winners[0]) {
    tokens.used(token);
    keepIssued(lc, winners[0], askedAt, 'refresh', token, false, 'issued by a race whose losers may have revoked its family');
  }
  tokens.presentationFailed(token, 'simultaneous refreshes presented it');
}

/** A refresh with no valid refresh token of the client: refused (4.1, refresh_token "must be a valid refresh token"). */
async function invalidRefresh(lc: Lifecycle, step: Extract<Step, { op: 'invalid-refresh' }>): Promise<void> {
  const { run, setup, tokens } = lc;
  const what = describeStep(step);
  let body: Record<string, unknown>;
  if (step.with === 'garbage') body = refreshBody(setup.profile, `not-a-refresh-token-${crypto.randomUUID()}`);
  else if (step.with === 'absent') body = { grant_type: 'refresh_token', client_id: setup.profile.credentials.clientId };
  else if (step.with === 'forged') {
    const token = await newestRefresh(lc);
    if (!token) return;
    body = refreshBody(setup.profile, tamperPayload(token.value));
    tokens.presentationFailed(token, 'a forged copy of it was presented');
  } else {
    const token = await newestAccess(lc);
    if (!token) return;
    body = refreshBody(setup.profile, token.value);
    tokens.distrust(token, 'it was presented as a refresh token');
  }
  const res = await postTokenPaced(lc, body, what);
  const on = 'TOKEN-REFRESH-TOKEN-VALID';
  run.judge(RULES.invalidRefresh.id, (check) => check.expectRefused(res, { operation: 'token', what: `a ${what}`, on, effect: tokenRequestEffect(res, on) }));
  if (step.with === 'absent') judgeParameterErrorCode(lc, res, what);
  judgeTokenAnswer(lc, res, what, 'refresh');
}

/** A refresh with the newest refresh token and no, another client's, or a malformed client_id. */
async function refreshWithClient(lc: Lifecycle, step: Extract<Step, { op: 'refresh-client' }>): Promise<void> {
  const { run, setup, tokens } = lc;
  const token = await newestRefresh(lc);
  if (!token) return;
  const what = `${describeStep(step)} (${standingWords(token)})`;
  const { clientId } = setup.profile.credentials;
  const body =
    step.client === 'absent'
      ? { grant_type: 'refresh_token', refresh_token: token.value }
      : step.client === 'other'
        ? refreshBody(setup.profile, token.value, setup.otherClientId!)
        : { grant_type: 'refresh_token', client_id: { id: clientId }, refresh_token: token.value };
  const fresh = token.standing === 'fresh';
  const on = { absent: 'TOKEN-CLIENT-ID-REQUIRED', other: 'TOKEN-REFRESH-CLIENT-BOUND', malformed: 'TOKEN-NO-SERVER-ERROR-ON-BAD-INPUT' }[step.client];
  const askedAt = Date.now();
  const res = await postTokenPaced(lc, body, what);
  // Whether a server error spent the token shows only in a refresh with it afterwards, and only while the token is fresh.
  const effect = fresh ? await refreshRequestEffect(run.http, setup.profile, res, token.value, on) : tokenRequestEffect(res, on);
  if (step.client === 'absent') {
    run.judge(RULES.clientId.id, (check) => check.expectRefused(res, { operation: 'token', what: `a ${what}`, on, effect }));
  } else if (step.client === 'other') {
    if (fresh) run.judge(RULES.clientBound.id, (check) => check.expectRefused(res, { operation: 'token', what: `a ${what}`, on, effect }));
    else run.judge(RULES.clientBound.id, (check) => check.judge(unsettledRefresh, { what, status: res.status, ...exchangeOf(res), why: token.why ?? 'it was used before' }));
  } else {
    run.judge(RULES.badInput.id, (check) => {
      // 7 lists 500 for the endpoint: a server error is judged by what it did (a token handed out, the refresh token spent).
      if (isServerError(res.status)) return check.serverError(res, { operation: 'token', what: `a ${what}`, effect });
      if (isSuccess(res.status)) check.expectSchema(res, TOKEN_RESPONSE_SCHEMA, `the answer to a ${what}`, { on: 'SPEC-4-1-RESPONSE-200' });
      check.judge(malformedRequestAnswer, { what, status: res.status });
    });
  }
  judgeTokenAnswer(lc, res, what, 'refresh');
  if (isSuccess(res.status) && tokenIn(res, 'access_token') !== undefined) {
    tokens.used(token);
    keepIssued(lc, res, askedAt, 'refresh', token, false, `issued to a ${what}`);
  } else tokens.presentationFailed(token, `a ${what} was answered ${res.status}`);
}

/** The access token's lifetime may have run out by `now`: expires_in in the declared unit, less the whole second a server may cut. */
function ranOut(lc: Lifecycle, token: AccessToken, status: number): boolean {
  return mayHaveRunOut(status, Date.now() - token.askedAt, earliestExpiryMs(lc.setup.profile, token.expiresIn));
}

async function bearer(lc: Lifecycle, step: Extract<Step, { op: 'bearer' }>): Promise<void> {
  const { run, setup, tokens } = lc;
  const path = setup.protectedPath!;
  const what = describeStep(step);
  const get = (token: string | undefined, label: string) => run.http.get(path, { ...(token === undefined ? {} : { bearer: token }), label });
  switch (step.with) {
    case 'newest':
    case 'older': {
      const token = step.with === 'newest' ? await newestAccess(lc) : tokens.olderAccess(step.pick);
      if (!token) return;
      const how = `${step.with === 'newest' ? 'the newest access token' : 'an older access token'} (access token ${token.id}${token.trusted ? '' : `, ${token.why}`})`;
      const res = await get(token.value, `${what} (access token ${token.id})`);
      const runOut = ranOut(lc, token, res.status);
      if (step.with === 'newest' && token.trusted && !runOut) {
        const declaredProtectedPath = (run.declaredValue('auth.protectedPath') as string | undefined) ?? null;
        run.judge(RULES.accessAccepted.id, (check) => check.judge(accessTokenLetIn, { how, path, status: res.status, exchange: res.exchangeId, declaredProtectedPath }));
        return;
      }
      const standing = runOut ? 'ran-out' : !token.trusted ? 'unsettled' : 'older';
      run.judge(RULES.accessAccepted.id, (check) => check.judge(recordedAccessToken, { how, path, status: res.status, ...exchangeOf(res), standing, ...(token.why ? { why: token.why } : {}) }));
      return;
    }
    case 'refresh': {
      const token = await newestRefresh(lc);
      if (!token) return;
      const res = await get(token.value, `${what} (${standingWords(token)})`);
      run.judge(RULES.refreshNotBearer.id, (check) => {
        check.expectRefused(res, { operation: 'userDetails', what: `a refresh token as bearer credential (${standingWords(token)})`, effect: GET_EXECUTES_NOTHING });
        check.judge(refreshTokenRefusalCode, { status: res.status, exchange: res.exchangeId });
      });
      tokens.presentationFailed(token, 'it was presented as a bearer credential');
      return;
    }
    case 'absent': {
      const res = await get(undefined, what);
      run.judge(RULES.bearerRequired.id, (check) => check.expectUnauthorized(res, `GET ${path} without a bearer credential`, { operation: setup.protectedOperation, effect: GET_EXECUTES_NOTHING }));
      return;
    }
    default: {
      let bearerToken = `garbage-${crypto.randomUUID()}`;
      if (step.with !== 'garbage') {
        const token = await newestAccess(lc);
        if (!token) return;
        bearerToken = step.with === 'forged' ? tamperPayload(token.value) : stripSignature(token.value);
        tokens.distrust(token, `a copy of it ${step.with === 'forged' ? 'with a forged payload' : 'without its signature'} was presented`);
      }
      const res = await get(bearerToken, what);
      run.judge(RULES.invalidBearer.id, (check) => check.expectUnauthorized(res, `GET ${path} with ${BEARER_WORDS[step.with]} as bearer credential`, { operation: setup.protectedOperation, effect: GET_EXECUTES_NOTHING }));
    }
  }
}

/** 7: "422 (parameter error)" for the token endpoint; a parameter error refused with another code is a WARN (a SHOULD). */
function judgeParameterErrorCode(lc: Lifecycle, res: HttpResponse, what: string): void {
  // A 429 or 413 refuses for a limit, not the parameter; a 2xx or 5xx is the refusal rule's to judge.
  if (res.status < 400 || res.status >= 500 || res.status === 429 || res.status === 413) return;
  lc.run.judge(RULES.parameterErrors.id, (check) => check.judge(parameterErrorsAre422, { answers: [{ what, status: res.status }] }));
}

async function badRequest(lc: Lifecycle, step: Extract<Step, { op: 'bad-request' }>): Promise<void> {
  const { run, setup } = lc;
  const { clientId, clientSecret } = setup.profile.credentials;
  const what = describeStep(step);
  const bodies: Record<BadRequest, () => Record<string, unknown>> = {
    'no-grant-type': () => ({ client_id: clientId, client_secret: clientSecret }),
    'unknown-grant-type': () => ({ grant_type: step.grantType ?? 'password', client_id: clientId, client_secret: clientSecret }),
    'cc-without-client-id': () => ({ grant_type: 'client_credentials', client_secret: clientSecret }),
    'wrong-secret': () => {
      const wrong = `${clientSecret}-wrong`;
      run.target.redactor.addSecret(wrong, 'client_secret');
      return { grant_type: 'client_credentials', client_id: clientId, client_secret: wrong };
    },
    'no-secret': () => ({ grant_type: 'client_credentials', client_id: clientId }),
  };
  const res = await postTokenPaced(lc, bodies[step.request](), what);
  const rule = step.request === 'cc-without-client-id' ? RULES.clientId : step.request === 'wrong-secret' || step.request === 'no-secret' ? RULES.clientSecret : RULES.grantType;
  const on = rule.requirements[0]!;
  run.judge(rule.id, (check) => check.expectRefused(res, { operation: 'token', what, on, effect: tokenRequestEffect(res, on) }));
  if (PARAMETER_ERRORS.has(step.request)) judgeParameterErrorCode(lc, res, what);
  judgeTokenAnswer(lc, res, what, 'client_credentials');
}

/** The newest access token (and refresh token) against the configured key set: the access token must verify (declared). */
async function verifyAgainstJwks(lc: Lifecycle): Promise<void> {
  const { run, setup } = lc;
  const access = await newestAccess(lc);
  const refreshToken = lc.tokens.newestRefresh();
  if (!access || !refreshToken) return;
  const source = setup.jwks!;
  const declaredBy = source.kind === 'file' ? 'auth.jwksFile' : 'auth.jwksUrl';
  let jwks;
  try {
    jwks = await loadJwks(source, run.http, { access: setup.profile.auth?.jwksAccess, bearer: run.target.tokens });
  } catch (error) {
    if (!(error instanceof JwksUnavailable)) throw error;
    run.judge(RULES.jwks.id, (check) => check.notObserved(error.message));
    return;
  }
  const keys = jwks.keys.map((k) => k.kid ?? '(no kid)');
  const accessProblem = (await verifyWithJwks(access.value, jwks)) ?? null;
  const refreshProblem = (await verifyWithJwks(refreshToken.value, jwks)) ?? null;
  const declaredValue = (run.declaredValue(declaredBy) as string | undefined) ?? null;
  run.judge(RULES.jwks.id, (check) => check.judge(tokensVerifyAgainstJwks, { declaredBy, declaredValue, keys, accessProblem, refreshProblem }));
}

async function runStep(lc: Lifecycle, step: Step): Promise<void> {
  switch (step.op) {
    case 'obtain':
      return obtain(lc, describeStep(step));
    case 'refresh': {
      const token = step.with === 'newest' ? await newestRefresh(lc) : lc.tokens.usedRefresh(step.pick);
      if (token) await refresh(lc, token, step);
      return;
    }
    case 'race': {
      const token = await newestRefresh(lc);
      if (token) await race(lc, token, describeStep(step));
      return;
    }
    case 'invalid-refresh':
      return invalidRefresh(lc, step);
    case 'refresh-client':
      return refreshWithClient(lc, step);
    case 'bearer':
      return bearer(lc, step);
    case 'bad-request':
      return badRequest(lc, step);
    case 'jwks':
      return verifyAgainstJwks(lc);
  }
}

async function runCase(setup: Setup, c: TokensCase, run: CaseRun): Promise<void> {
  const lc: Lifecycle = { setup, run, tokens: new TokenLifecycle() };
  for (const step of c.steps.slice(0, MAX_STEPS)) await runStep(lc, step);
}

/** The protected GET the bearer steps present tokens to (suites/auth/support.ts protectedPath, without a check to skip). */
function protectedPathOf(profile: ResolvedProfile): string | undefined {
  if (profile.auth?.protectedPath) return profile.auth.protectedPath;
  const userId = profile.users?.existingUserId;
  return userId ? `/v2/users/${encodeURIComponent(userId)}` : undefined;
}

/** A second registered client (suites/auth/support.ts otherClientId, without a check to skip). */
function otherClientOf(profile: ResolvedProfile): string | undefined {
  const id = profile.auth?.otherClientId ?? profile.users?.ownLicence?.clientId;
  return id && id !== profile.credentials.clientId ? id : undefined;
}

export const tokensModel: AreaModel<TokensCase> = {
  area: 'auth',
  rules: Object.values(RULES),
  prepare(profile: ResolvedProfile): AreaExplorer<TokensCase> | Unexplorable {
    const path = protectedPathOf(profile);
    const other = otherClientOf(profile);
    const jwks = jwksSource(profile);
    const setup: Setup = {
      profile,
      ...(path ? { protectedPath: path, protectedOperation: protectedOperation(profile) } : {}),
      ...(other ? { otherClientId: other } : {}),
      ...(jwks ? { jwks } : {}),
      racers: Math.max(2, Math.min(MAX_RACERS, profile.auth?.concurrency ?? MAX_RACERS)),
      pacer: Pacer.forProfile(profile),
    };
    return { cases: caseArbitrary(setup), describe: describeCase, kindOf: kindOfCase, run: (c, run) => runCase(setup, c, run) };
  },
};
