// The named judgments of the auth checks (suites/auth/*-judgments.ts,
// suites/auth/refresh-race.ts): applied through a check's context they make
// the claims the inline calls they replace made — same levels, messages,
// details, bases and observations — and judged again from the record they
// give the verdict, reason and basis the live run gave; each judgment that
// can FAIL does so on an input that contradicts its rule and not on one that
// holds it; and each input judges the same after a JSON round trip, as a
// stored record is read back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { base64url } from 'jose';
import { judgeRecord } from '../../src/check/record.ts';
import { CheckFailure, type CheckContext } from '../../src/check/context.ts';
import { contextWith, toItsEnd } from '../support/check-context.ts';
import type { NamedJudgment } from '../../src/check/judgments.ts';
import { isSuccess } from '../../src/check/context.ts';
import { decideOutcome } from '../../src/check/outcome.ts';
import { Redactor } from '../../src/http/redact.ts';
import { documentedRefusals } from '../../src/spec/status-codes.ts';
import { accessTokenLetIn, refreshTokenRefusalCode, type AccessTokenAnswer } from '../../suites/auth/bearer-judgments.ts';
import { countRace, racersOf, refreshRace, type Racer, type RacerResult } from '../../suites/auth/refresh-race.ts';
import { renewalAfterClockMoved, reuseAccepted, successorFirstUse, type LaterRenewal, type ReuseAnswer, type SuccessorFirstUse } from '../../suites/auth/refresh-judgments.ts';
import { tokenEndpointChallenge, tokenPairIssued, tokenResponseParses, type IssuedPair } from '../../suites/auth/token-response-judgments.ts';
import { expiresInAgreesWithExp, readToken, tokensAreJwts, tokensVerifyAgainstJwks, type AnnouncedLifetime, type IssuedTokens, type KeySetVerification } from '../../suites/auth/token-format-judgments.ts';
import { malformedRequestAnswer, parameterErrorAccepted, parameterErrorsAre422 } from '../../suites/auth/parameter-judgments.ts';

type Meta = { severity: 'MUST' | 'SHOULD' | 'REVIEW'; requirements: string[] };
const meta = (severity: Meta['severity'], requirement: string): Meta => ({ severity, requirements: [requirement] });

/** A context whose evidence holds an answer of each status given (by exchange id), as the client records them. */
const contextFor = (m: Meta, answers: Record<number, number> = {}, redactor = new Redactor([])): CheckContext => contextWith({ requirements: m.requirements, answers, redactor });

/**
 * The judgment applied through a context and the inline calls it replaced,
 * run side by side on the same observation: the claims are the same (level,
 * message, details, basis and its reference, what they rest on), and the
 * record judged again gives the verdict, reason, basis and findings of the
 * inline record and of the live claims.
 */
function sameAsInline<I>(m: Meta, answers: Record<number, number>, judgment: NamedJudgment<I>, input: I, inline: (check: CheckContext) => void, redactor = () => new Redactor([])) {
  const named = contextFor(m, answers, redactor());
  toItsEnd(() => named.judge(judgment, input));
  const old = contextFor(m, answers, redactor());
  toItsEnd(() => inline(old));
  assert.deepEqual(named.claims, old.claims, 'the claims the inline calls made');
  const judged = judgeRecord(m, { claims: named.entries });
  const inlineJudged = judgeRecord(m, { claims: old.entries });
  const live = decideOutcome({ severity: m.severity, claims: named.claims });
  assert.deepEqual(judged, inlineJudged, 'judged again from the record, as the inline record');
  assert.deepEqual(judged, live, 'judged again from the record, as live');
  return judged;
}

// ---- 1. Same verdict, reason and basis as the inline calls, live and judged again.

/** The inline judgment of bearer.check.ts (expectAccessTokenAccepted and forbiddenToThisClient) before it was named. */
function inlineAccessToken(check: CheckContext, { how, path, status, exchange, declaredProtectedPath }: AccessTokenAnswer): void {
  if (isSuccess(status)) return;
  const details = { actual: status, exchange };
  if (status === 401) check.fail(`${how} was refused as a credential: 401 (unauthorized) on GET ${path}`, details);
  if (status === 403) {
    const message = `${how} was answered 403 (forbidden) on GET ${path}: the credential was recognised, but this client may not call the operation, which contradicts no rule of 5; set auth.protectedPath to a GET operation this client may call`;
    if (declaredProtectedPath !== null) return check.review(`${message} (auth.protectedPath is ${path})`, details);
    check.warn(`${message}; 403 is not among the codes 7 lists for user details (${documentedRefusals('userDetails').join('/')})`, details, { on: 'SPEC-7-USER-DETAILS-CODES' });
    return;
  }
  check.notObserved(`GET ${path} with ${how} was answered ${status}, which says nothing of whether the credential was let in; set auth.protectedPath to a GET operation this client may call`, details);
}

const accessAnswer = (status: number, declaredProtectedPath: string | null = null): AccessTokenAnswer => ({
  how: 'a freshly issued access token',
  path: declaredProtectedPath ?? '/v2/users/u-1',
  status,
  exchange: 7,
  declaredProtectedPath,
});

test('auth.access-token-let-in: as the inline calls, for each answer an access token gets', () => {
  const m = meta('MUST', 'AUTH-ACCESS-TOKEN-ACCEPTED');
  const expected: Array<[AccessTokenAnswer, string]> = [
    [accessAnswer(200), 'PASS'],
    [accessAnswer(401), 'FAIL'],
    [accessAnswer(403), 'WARN'],
    [accessAnswer(403, '/v2/partners/me'), 'REVIEW'],
    [accessAnswer(404), 'ERROR'],
  ];
  for (const [input, verdict] of expected) {
    const judged = sameAsInline(m, { 7: input.status }, accessTokenLetIn, input, (check) => inlineAccessToken(check, input));
    assert.equal(judged.verdict, verdict, `an answer ${input.status}`);
  }
  const failed = sameAsInline(m, { 7: 401 }, accessTokenLetIn, accessAnswer(401), (check) => inlineAccessToken(check, accessAnswer(401)));
  assert.equal(failed.basis?.kind, 'spec');
  assert.match(failed.reason!, /refused as a credential: 401/);
  const warned = sameAsInline(m, { 7: 403 }, accessTokenLetIn, accessAnswer(403), (check) => inlineAccessToken(check, accessAnswer(403)));
  assert.match(JSON.stringify(warned.basis), /Get user details v2/, 'the 403 WARN rests on section 7\'s row for user details');
});

/** The inline judgment of useSuccessorOnce (refresh.check.ts) before it was named. */
function inlineFirstUse(check: CheckContext, { used, successor, status, exchange, at }: SuccessorFirstUse): void {
  const repeated = successor === used;
  const details = { actual: status, exchange };
  if (repeated && isSuccess(status)) {
    check.fail(`the refresh handed back as refresh_token the very token it had used, and that token was accepted again at ${at}: ${status}`, details);
  }
  if (!isSuccess(status)) {
    const what = repeated
      ? 'the refresh response handed back as refresh_token the very token the request used, which the refresh had just invalidated: presented to obtain the next token pair, it'
      : 'the refresh token the refresh issued';
    check.fail(`${what} was refused on its first use at ${at}: ${status}`, details, { on: 'SPEC-2-1-REFRESH-TOKEN' });
  }
}

test('auth.successor-first-use: as the inline calls; a FAIL resting on a transient answer (503) is ERROR, the answer named by the judgment as the context derived it', () => {
  const m = meta('MUST', 'TOKEN-REFRESH-SINGLE-USE');
  const used = '«refresh_token#11111111»';
  const cases: Array<[SuccessorFirstUse, string]> = [
    [{ used, successor: '«refresh_token#22222222»', status: 200, exchange: 4, at: '04:05:06' }, 'PASS'],
    [{ used, successor: '«refresh_token#22222222»', status: 422, exchange: 4, at: '04:05:06' }, 'FAIL'],
    [{ used, successor: used, status: 200, exchange: 4, at: '04:05:06' }, 'FAIL'],
    [{ used, successor: used, status: 400, exchange: 4, at: '04:05:06' }, 'FAIL'],
    [{ used, successor: '«refresh_token#22222222»', status: 503, exchange: 4, at: '04:05:06' }, 'ERROR'],
  ];
  for (const [input, verdict] of cases) {
    const judged = sameAsInline(m, { 4: input.status }, successorFirstUse, input, (check) => inlineFirstUse(check, input));
    assert.equal(judged.verdict, verdict, `${input.successor === used ? 'the used token' : 'a new token'} answered ${input.status}`);
  }
  const onDeadCredential = sameAsInline(m, { 4: 422 }, successorFirstUse, cases[1]![0], (check) => inlineFirstUse(check, cases[1]![0]));
  assert.match(JSON.stringify(onDeadCredential.basis), /next token pair/i, 'a refused successor FAILs on 2.1\'s sentence');
});

/** The inline judgment of refresh-race.check.ts before it was named (n: the racers). */
function inlineRace(check: CheckContext, racers: Racer[]): void {
  const n = racers.length;
  const judged = countRace(racers);
  const outcomes = judged.outcomes.join(', ');
  const details = { outcomes: judged.outcomes, winners: judged.winners, successors: judged.successors };
  if (judged.winners > 1) {
    const issued = judged.successors ? `, handing out ${judged.successors} distinct successor refresh token(s)` : '';
    check.fail(`${judged.winners} of ${n} simultaneous refreshes with one refresh token succeeded${issued}; at most one may (${outcomes})`, details);
  }
  if (judged.notHandled === n) check.notObserved(`none of the ${n} simultaneous refreshes was handled (${outcomes}): the race was not run`, details);
  if (judged.notHandled) check.note(`${judged.notHandled} of ${n} refreshes got a transient answer or none (${outcomes}): the service did not handle them, so they are not counted`, details);
  const [serverError] = judged.serverErrors;
  if (serverError) {
    const statuses = judged.serverErrors.map((e) => e.status).join(', ');
    check.warn(`single use held, but ${judged.serverErrors.length} simultaneous refresh(es) that lost the race were answered with a server error (${statuses})`, { ...details, exchange: serverError.exchange }, { observed: { kind: 'race-loser', status: serverError.status } });
  }
  if (!judged.winners) check.note(`none of the ${n - judged.notHandled} handled refreshes succeeded (${outcomes}): single use held, though the token was not exchanged at all`, details);
}

let exchangeIds = 100;
const racer = (status: number, successor?: string): RacerResult => ({
  answer: { status, exchangeId: ++exchangeIds, json: isSuccess(status) ? { access_token: 'a', expires_in: 300, ...(successor ? { refresh_token: successor } : {}) } : { error: 'x' } },
});

const races: Array<[string, RacerResult[], string]> = [
  ['one winner', [racer(200, 'next-token-1'), racer(422), racer(422)], 'PASS'],
  ['three winners, two successors', [racer(200, 'successor-one'), racer(200, 'successor-two'), racer(200, 'successor-two'), racer(422)], 'FAIL'],
  ['a loser answered 500', [racer(200, 'next-token-1'), racer(500), racer(503), { failure: 'CONNECTION_RESET' }], 'WARN'],
  ['nothing handled', [racer(503), racer(429), { failure: 'TIMEOUT' }], 'ERROR'],
  ['no winner', [racer(422), racer(422)], 'PASS'],
];

test('auth.refresh-race: as the inline calls, for races won once, several times, by none, with a 5xx loser, and not run', () => {
  const m = meta('MUST', 'TOKEN-REFRESH-SINGLE-USE-ATOMIC');
  for (const [name, results, verdict] of races) {
    const racers = racersOf(results);
    const answers = Object.fromEntries(racers.flatMap((r) => ('status' in r ? [[r.exchange, r.status]] : [])));
    const judged = sameAsInline(m, answers, refreshRace, { racers }, (check) => inlineRace(check, racers));
    assert.equal(judged.verdict, verdict, name);
  }
});

test('auth.refresh-race: successors are counted from the record, redacted: equal tokens stay equal, distinct ones distinct', () => {
  const m = meta('MUST', 'TOKEN-REFRESH-SINGLE-USE-ATOMIC');
  const tokens = ['successor-one', 'successor-two'];
  const context = contextFor(m, {}, new Redactor(tokens.map((t) => [t, 'refresh_token'])));
  const racers = racersOf([racer(200, tokens[0]), racer(200, tokens[1]), racer(200, tokens[1])]);
  toItsEnd(() => context.judge(refreshRace, { racers }));
  assert.doesNotMatch(JSON.stringify(context.entries), /successor-one|successor-two/, 'the tokens are kept redacted');
  assert.match(judgeRecord(m, { claims: context.entries }).reason!, /3 of 3 simultaneous refreshes with one refresh token succeeded, handing out 2 distinct successor/);
});

/** The inline judgment of auth.expires-in-agrees-with-exp before it was named. */
function inlineExpiresIn(check: CheckContext, { expiresIn, timeClaims, issuedAtMs, declaredUnit }: AnnouncedLifetime): void {
  const { exp, iat } = timeClaims;
  const issuedAt = typeof iat === 'number' ? iat : Math.floor(issuedAtMs / 1000);
  const lifetime = exp - issuedAt;
  const tolerance = Math.max(5, lifetime * 0.05);
  const inSeconds = (unit: 'seconds' | 'milliseconds') => (unit === 'milliseconds' ? expiresIn / 1000 : expiresIn);
  const agreesIn = (unit: 'seconds' | 'milliseconds') => Math.abs(lifetime - inSeconds(unit)) <= tolerance;
  const observed = { expires_in: expiresIn, declaredUnit: declaredUnit ?? null, exp, iat: iat ?? null, lifetimeFromClaims: lifetime };
  if (declaredUnit) {
    if (!agreesIn(declaredUnit)) check.failDeclared('auth.expiresInUnit', `expires_in ${expiresIn} read in ${declaredUnit} (auth.expiresInUnit) disagrees with exp - iat = ${lifetime} s`, observed);
    check.note(`expires_in ${expiresIn} matches exp - iat = ${lifetime} s in the declared unit (${declaredUnit})`, observed);
    return;
  }
  const matching = (['seconds', 'milliseconds'] as const).filter(agreesIn);
  check.review(
    matching.length
      ? `expires_in ${expiresIn} matches exp - iat = ${lifetime} s when read in ${matching.join(' or ')}; the spec does not show the unit (set auth.expiresInUnit to declare it)`
      : `expires_in ${expiresIn} matches exp - iat = ${lifetime} s in neither seconds nor milliseconds; the spec does not show the unit (set auth.expiresInUnit to declare it)`,
    observed,
  );
}

const NOW_MS = 1_764_000_000_000;
const NOW_S = NOW_MS / 1000;
const lifetime = (expiresIn: number, declaredUnit: AnnouncedLifetime['declaredUnit'], iat: number | undefined = NOW_S): AnnouncedLifetime => ({
  expiresIn,
  timeClaims: { exp: NOW_S + 300, ...(iat === undefined ? {} : { iat }) },
  issuedAtMs: NOW_MS,
  declaredUnit,
});

test('auth.expires-in-agrees-with-exp: as the inline calls, declared or not; a disagreement with the declared unit FAILs on that declaration', () => {
  const m = meta('REVIEW', 'TOKEN-EXPIRES-IN');
  const cases: Array<[AnnouncedLifetime, string]> = [
    [lifetime(300, 'seconds'), 'PASS'],
    [lifetime(300_000, 'milliseconds'), 'PASS'],
    [lifetime(900, 'seconds'), 'FAIL'],
    // The tolerance: a few seconds, or 5 % of the lifetime (15 s of 300 s).
    [lifetime(314, 'seconds'), 'PASS'],
    [lifetime(316, 'seconds'), 'FAIL'],
    [lifetime(300, null), 'REVIEW'],
    [lifetime(900, null, undefined), 'REVIEW'],
  ];
  for (const [input, verdict] of cases) {
    // Live, the context reads the declared value from the profile; the judgment from its input.
    const profile = { auth: input.declaredUnit ? { expiresInUnit: input.declaredUnit } : {} };
    const named = contextWith({ requirements: m.requirements, profile });
    toItsEnd(() => named.judge(expiresInAgreesWithExp, input));
    const old = contextWith({ requirements: m.requirements, profile });
    toItsEnd(() => inlineExpiresIn(old, input));
    assert.deepEqual(named.claims, old.claims, `expires_in ${input.expiresIn} (${input.declaredUnit})`);
    const judged = judgeRecord(m, { claims: named.entries });
    assert.deepEqual(judged, judgeRecord(m, { claims: old.entries }));
    assert.equal(judged.verdict, verdict, `expires_in ${input.expiresIn}`);
    if (verdict === 'FAIL') {
      assert.equal(judged.basis?.kind, 'profile-declared');
      assert.equal(judged.basis?.profileKey, 'auth.expiresInUnit');
      assert.equal(judged.basis?.declaredValue, 'seconds');
    }
  }
});

/** The inline judgment of auth.client-credentials-issues-pair before it was named. */
function inlinePair(check: CheckContext, body: Record<string, unknown>, exchange: number): void {
  for (const field of ['access_token', 'refresh_token'] as const) {
    check.assert(typeof body[field] === 'string' && body[field] !== '', `the response carries no ${field}`, { field, actual: body[field] ?? null, exchange });
  }
  check.assert(body.access_token !== body.refresh_token, 'the refresh token is the access token: rule 1 requires both an access token and a refresh token', { exchange });
}

test('auth.token-pair-issued: as the inline calls; one token in both fields is told from the record, where it is redacted', () => {
  const m = meta('MUST', 'TOKEN-CC-ISSUES-PAIR');
  const jwt = (n: number) => `eyJhbGciOiJFZERTQSJ9.eyJuIjo${n}fQ.c2lnbmF0dXJl`;
  const bodies: Array<[Record<string, unknown>, string]> = [
    [{ access_token: jwt(1), refresh_token: jwt(2) }, 'PASS'],
    [{ access_token: jwt(1), refresh_token: jwt(1) }, 'FAIL'],
    [{ access_token: jwt(1) }, 'FAIL'],
    [{ access_token: '', refresh_token: jwt(2) }, 'FAIL'],
    [{ access_token: 42, refresh_token: jwt(2) }, 'FAIL'],
  ];
  for (const [body, verdict] of bodies) {
    // As in a run: the answer's body was redacted when it was recorded, which taught the redactor its tokens.
    const redactor = () => {
      const r = new Redactor([]);
      r.redactJson(body);
      return r;
    };
    const input: IssuedPair = { accessToken: body.access_token ?? null, refreshToken: body.refresh_token ?? null, status: 200, exchange: 3 };
    const judged = sameAsInline(m, { 3: 200 }, tokenPairIssued, input, (check) => inlinePair(check, body, 3), redactor);
    assert.equal(judged.verdict, verdict, JSON.stringify(body));
  }
});

// ---- 2. Each judgment that can FAIL: FAIL on an input that contradicts its rule, no FAIL on one that holds it.

const segment = (value: unknown) => base64url.encode(JSON.stringify(value));
const jws = (payload: Record<string, unknown>, header: Record<string, unknown> = { alg: 'EdDSA', typ: 'JWT' }) => `${segment(header)}.${segment(payload)}.c2ln`;
const jwe = `${segment({ alg: 'RSA-OAEP', enc: 'A256GCM' })}.a2V5.aXY.Y2lwaGVy.dGFn`;
const issued = (access: string, refresh: string): IssuedTokens => ({
  tokens: [
    { name: 'access_token', read: readToken(access) },
    { name: 'refresh_token', read: readToken(refresh) },
  ],
  issuedAtMs: NOW_MS,
  status: 200,
  exchange: 5,
});
const renewal = (renewed: string, iat: number | null = NOW_S): LaterRenewal => ({ gapMs: 1_130, issuedAccessToken: '«access_token#0a1b2c3d»', renewedAccessToken: renewed, iat, exp: iat === null ? null : iat + 300, status: 200, exchange: 9 });
const firstUse = (successor: string, status: number): SuccessorFirstUse => ({ used: '«refresh_token#11111111»', successor, status, exchange: 4, at: '04:05:06' });
const reuse = (which: ReuseAnswer['which'], status: number): ReuseAnswer => ({ which, status, exchange: 6, at: '04:05:07' });
const keySet = (accessProblem: string | null, refreshProblem: string | null = null): KeySetVerification => ({ declaredBy: 'auth.jwksUrl', declaredValue: 'https://idp.example/jwks.json', keys: ['k1'], accessProblem, refreshProblem });

/** Each judgment that can FAIL, with an input that contradicts its rule and one (or more) that holds it. */
const failing: Array<{ judgment: NamedJudgment<never>; contradicts: unknown[]; holds: unknown[] }> = [
  { judgment: accessTokenLetIn, contradicts: [accessAnswer(401)], holds: [accessAnswer(200), accessAnswer(204), accessAnswer(403)] },
  { judgment: refreshRace, contradicts: [{ racers: racersOf(races[1]![1]) }], holds: [{ racers: racersOf(races[0]![1]) }, { racers: racersOf(races[2]![1]) }, { racers: racersOf(races[4]![1]) }] },
  { judgment: renewalAfterClockMoved, contradicts: [renewal('«access_token#0a1b2c3d»')], holds: [renewal('«access_token#99999999»')] },
  {
    judgment: successorFirstUse,
    contradicts: [firstUse('«refresh_token#22222222»', 422), firstUse('«refresh_token#11111111»', 200), firstUse('«refresh_token#11111111»', 401)],
    holds: [firstUse('«refresh_token#22222222»', 200)],
  },
  { judgment: reuseAccepted, contradicts: [reuse('used-once', 200), reuse('issued-by-refresh', 201)], holds: [reuse('used-once', 422), reuse('issued-by-refresh', 401)] },
  {
    judgment: tokenPairIssued,
    contradicts: [
      { accessToken: 'same', refreshToken: 'same', status: 200, exchange: 1 },
      { accessToken: 'a-token', refreshToken: null, status: 200, exchange: 1 },
      { accessToken: '', refreshToken: 'r-token', status: 200, exchange: 1 },
    ],
    holds: [{ accessToken: 'a-token', refreshToken: 'r-token', status: 200, exchange: 1 }],
  },
  { judgment: tokenResponseParses, contradicts: [{ parsed: false, jsonError: 'empty body', status: 200, exchange: 2 }], holds: [{ parsed: true, jsonError: null, status: 200, exchange: 2 }] },
  {
    judgment: tokenEndpointChallenge,
    contradicts: [{ status: 401, challenge: 'Bearer realm="api"' }],
    holds: [{ status: 401, challenge: 'Basic realm="token"' }, { status: 403, challenge: '' }],
  },
  {
    judgment: tokensAreJwts,
    contradicts: [issued('opaque-token-value', jws({ iat: NOW_S })), issued(jws({ iat: NOW_S, exp: NOW_MS + 300_000 }), jws({ iat: NOW_S })), issued(jws({ iat: NOW_S }), 'a.b')],
    holds: [issued(jws({ iat: NOW_S, exp: NOW_S + 300 }), jws({ iat: NOW_S })), issued(jwe, jws({ sub: 'x' }))],
  },
  { judgment: expiresInAgreesWithExp, contradicts: [lifetime(900, 'seconds'), lifetime(300, 'milliseconds')], holds: [lifetime(300, 'seconds'), lifetime(300_000, 'milliseconds'), lifetime(900, null)] },
  { judgment: tokensVerifyAgainstJwks, contradicts: [keySet('ERR_JWKS_NO_MATCHING_KEY: no applicable key found')], holds: [keySet(null), keySet(null, 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED: signature verification failed')] },
  { judgment: parameterErrorAccepted, contradicts: [{ what: 'no grant_type', status: 200, exchange: 8 }], holds: [{ what: 'no grant_type', status: 422, exchange: 8 }, { what: 'no grant_type', status: 400, exchange: 8 }] },
  {
    judgment: parameterErrorsAre422,
    contradicts: [{ answers: [{ what: 'no grant_type', status: 422 }, { what: 'an unknown grant_type', status: 400 }] }],
    holds: [{ answers: [{ what: 'no grant_type', status: 422 }, { what: 'an unknown grant_type', status: 422 }] }],
  },
];

const fails = (judgment: NamedJudgment<never>, input: unknown) => judgment.judge(input as never).claims.some((c) => c.level === 'FAIL');

for (const { judgment, contradicts, holds } of failing) {
  test(`${judgment.name}: FAILs where its rule is contradicted, and not where it holds`, () => {
    for (const input of contradicts) assert.ok(fails(judgment, input), `no FAIL on ${JSON.stringify(input)}`);
    for (const input of holds) assert.ok(!fails(judgment, input), `a FAIL on ${JSON.stringify(input)}`);
  });
}

test('the judgments that cannot FAIL say what they say: a refusal code other than 401 and an accepted malformed request WARN, other answers do not', () => {
  const levels = (judgment: NamedJudgment<never>, input: unknown) => judgment.judge(input as never).claims.map((c) => c.level);
  assert.deepEqual(levels(refreshTokenRefusalCode, { status: 403, exchange: 1 }), documentedRefusals('userDetails').includes(403) ? ['WARN'] : []);
  assert.deepEqual(levels(refreshTokenRefusalCode, { status: 400, exchange: 1 }), ['WARN']);
  assert.deepEqual(levels(refreshTokenRefusalCode, { status: 401, exchange: 1 }), []);
  assert.deepEqual(levels(malformedRequestAnswer, { what: 'an empty body', status: 200 }), ['WARN']);
  assert.deepEqual(levels(malformedRequestAnswer, { what: 'an empty body', status: 400 }), ['INFO']);
  assert.deepEqual(levels(malformedRequestAnswer, { what: 'an empty body', status: 500 }), [], 'a server error is the server-error rule\'s');
});

test('a judgment that ends the check is recorded as having ended it, and judged again to the same FAIL and reason', () => {
  const m = meta('MUST', 'TOKEN-REFRESH-SINGLE-USE');
  const context = contextFor(m, { 6: 200 });
  assert.throws(() => context.judge(reuseAccepted, reuse('used-once', 200)), CheckFailure);
  const [entry] = context.entries as Array<{ judgment: string; ended?: true }>;
  assert.equal(entry!.judgment, 'auth.reuse-accepted');
  assert.equal(entry!.ended, true);
  const judged = judgeRecord(m, { claims: context.entries });
  assert.equal(judged.verdict, 'FAIL');
  assert.equal(judged.reason, 'refresh token reused at 04:05:07 was accepted: 200');
});

// ---- 3. Every input judges the same after a JSON round trip (a stored record read back).

test('every input judges the same after a JSON round trip', () => {
  const others: Array<[NamedJudgment<never>, unknown[]]> = [
    [refreshTokenRefusalCode, [{ status: 403, exchange: 1 }, { status: 401, exchange: 1 }]],
    [malformedRequestAnswer, [{ what: 'an empty body', status: 200 }, { what: 'an empty body', status: 400 }]],
  ];
  const all: Array<[NamedJudgment<never>, unknown[]]> = [...failing.map(({ judgment, contradicts, holds }) => [judgment, [...contradicts, ...holds]] as [NamedJudgment<never>, unknown[]]), ...others];
  let inputs = 0;
  for (const [judgment, cases] of all) {
    for (const input of cases) {
      const again = JSON.parse(JSON.stringify(input)) as unknown;
      assert.deepEqual(judgment.judge(again as never), judgment.judge(input as never), `${judgment.name}: ${JSON.stringify(input)}`);
      inputs++;
    }
  }
  assert.equal(all.length, 15, 'every judgment of suites/auth');
  assert.ok(inputs > 40);
});
