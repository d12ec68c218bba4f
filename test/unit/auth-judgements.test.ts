// The pure judgements of the auth checks: what a race of simultaneous
// refreshes did (suites/auth/refresh-race.ts), how fine an issuer's clock is
// as its tokens show it (suites/auth/refresh-renewal.ts), and what RFC 7519
// section 1 accepts as a JWT (src/auth/jwt.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { base64url } from 'jose';
import { judgeRace, type RacerResult } from '../../suites/auth/refresh-race.ts';
import { tokenClock } from '../../suites/auth/refresh-renewal.ts';
import { readJwt } from '../../src/auth/jwt.ts';

let exchange = 0;
const answer = (status: number, refreshToken?: string): RacerResult => ({
  answer: { status, exchangeId: ++exchange, json: status === 200 ? { access_token: 'a', expires_in: 300, ...(refreshToken ? { refresh_token: refreshToken } : {}) } : { error: 'x' } },
});

test('a race with one winner and refusals: one success, one successor', () => {
  const judged = judgeRace([answer(200, 'next'), answer(422), answer(422)]);
  assert.equal(judged.winners, 1);
  assert.equal(judged.successors, 1);
  assert.equal(judged.notHandled, 0);
  assert.deepEqual(judged.serverErrors, []);
  assert.deepEqual(judged.outcomes, ['200', '422', '422']);
});

test('several winners are counted with the distinct successors they handed out', () => {
  const judged = judgeRace([answer(200, 'one'), answer(200, 'two'), answer(200, 'two'), answer(422)]);
  assert.equal(judged.winners, 3);
  assert.equal(judged.successors, 2);
});

test('transient answers and missing answers are not counted; a 5xx loser is a server error, a 503 is not', () => {
  const judged = judgeRace([answer(200, 'next'), answer(503), answer(429), { failure: 'CONNECTION_RESET' }, answer(500), answer(422)]);
  assert.equal(judged.winners, 1);
  assert.equal(judged.notHandled, 3);
  assert.deepEqual(judged.serverErrors.map((e) => e.status), [500]);
  assert.equal(judged.outcomes[3], 'no answer (CONNECTION_RESET)');
});

test('winners without a refresh token hand out no successor', () => {
  assert.equal(judgeRace([answer(200), answer(422)]).successors, 0);
});

const segment = (value: unknown) => base64url.encode(JSON.stringify(value));
const jws = (payload: Record<string, unknown>) => `${segment({ alg: 'EdDSA', typ: 'JWT' })}.${segment(payload)}.c2ln`;

test('the clock a token shows: whole seconds, fractions, or none', () => {
  assert.deepEqual(tokenClock(jws({ iat: 1_700_000_000, exp: 1_700_000_300 })), { iat: 1_700_000_000, exp: 1_700_000_300, granularity: 'whole seconds' });
  assert.equal(tokenClock(jws({ iat: 1_700_000_000.25 })).granularity, 'fractions of a second');
  assert.match(tokenClock(jws({ sub: 'x' })).granularity, /no iat or exp/);
  assert.match(tokenClock('opaque').granularity, /no iat or exp/);
});

test('RFC 7519 section 1: a JWS or a JWE Compact Serialization is a JWT, anything else is not', () => {
  const signed = readJwt(jws({ sub: 'x' }));
  assert.ok(typeof signed !== 'string' && signed.form === 'JWS');
  const encrypted = readJwt(`${segment({ alg: 'RSA-OAEP', enc: 'A256GCM' })}.a2V5.aXY.Y2lwaGVy.dGFn`);
  assert.ok(typeof encrypted !== 'string' && encrypted.form === 'JWE');
  assert.match(readJwt('0123456789abcdef') as string, /1 dot-separated segment/);
  assert.match(readJwt(`${segment({ alg: 'none' })}.a.b.c.d`) as string, /"enc"/);
  assert.match(readJwt(`${segment([1])}.${segment({})}.c2ln`) as string, /header is not a JSON object/);
});
