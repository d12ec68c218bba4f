// The one judgement of a server error where a refusal was due
// (src/check/server-error.ts), alone and through the check context that
// every refusal check uses (expectRefused, expectUnauthorized, serverError):
// what the request did decides, then the status against section 7's row and
// the status the spec names for the condition.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { effectUnknown, executed, GET_EXECUTES_NOTHING, judgeServerError, nothingExecuted } from '../../src/check/server-error.ts';
import { CheckContext, CheckFailure } from '../../src/check/context.ts';
import { decideOutcome } from '../../src/check/outcome.ts';
import { Redactor } from '../../src/http/redact.ts';
import { sentenceById } from '../../src/requirements.ts';
import type { HttpResponse } from '../../src/http/client.ts';

const nothing = nothingExecuted('the offer status shows no trade');
const unread = effectUnknown('no operation shows the tokens issued');

test('an effect that contradicts the rule FAILs on its sentence, whatever the status', () => {
  for (const status of [500, 502, 503]) {
    const judged = judgeServerError({ status, operation: 'acceptOffer', effect: executed('executed the offer', 'OFFER-NEWEST-ONLY') });
    assert.deepEqual(judged, { level: 'FAIL', why: 'it executed the offer', on: 'OFFER-NEWEST-ONLY' });
  }
});

test('a listed 5xx that executed nothing, or nothing readable, is a WARN on RFC 9110 15.6 that says what it rests on', () => {
  const none = judgeServerError({ status: 500, operation: 'acceptOffer', effect: nothing });
  assert.equal(none.level, 'WARN');
  assert.equal(none.level === 'WARN' && none.on, 'RFC9110-15.6');
  assert.match(none.why, /section 7 lists 500 for accept trade offer, and nothing executed \(the offer status shows no trade\)/);
  const unknown = judgeServerError({ status: 500, operation: 'token', effect: unread });
  assert.equal(unknown.level, 'WARN');
  assert.match(unknown.why, /cannot be read \(no operation shows the tokens issued\), so this rests on the status alone/);
  // An operation the spec shows no codes for: no row to contradict.
  assert.equal(judgeServerError({ status: 500, effect: GET_EXECUTES_NOTHING }).level, 'WARN');
});

test('a 5xx the row does not list FAILs on the row; gateway and overload answers decide nothing', () => {
  assert.deepEqual(judgeServerError({ status: 500, operation: 'userDetails', effect: GET_EXECUTES_NOTHING }), {
    level: 'FAIL',
    why: 'section 7 does not list 500 for user details v2',
    on: 'SPEC-7-USER-DETAILS-CODES',
  });
  assert.equal(judgeServerError({ status: 501, operation: 'token', effect: unread }).level, 'FAIL');
  for (const status of [502, 504, 503]) assert.equal(judgeServerError({ status, operation: 'token', effect: unread }).level, 'ERROR', String(status));
});

test('where the spec names the status for the condition, another FAILs on that sentence; a gateway\'s answer (502, 504, 503 where the row does not list it) does not', () => {
  const named = { status: 429, on: 'SPEC-8-RATE-LIMIT' };
  assert.deepEqual(judgeServerError({ status: 500, operation: 'token', effect: unread, named }), { level: 'FAIL', why: 'the spec names 429 for this condition', on: 'SPEC-8-RATE-LIMIT' });
  for (const status of [502, 503, 504]) assert.equal(judgeServerError({ status, operation: 'token', effect: unread, named }).level, 'ERROR', String(status));
});

function response(status: number, json?: unknown): HttpResponse {
  const text = json === undefined ? '' : JSON.stringify(json);
  return { exchangeId: 1, status, headers: {}, body: Buffer.from(text), text, json, truncated: false, durationMs: 1, startedAt: new Date() };
}

function outcomeOf(requirement: string, run: (check: CheckContext) => void) {
  const check = new CheckContext(new Redactor(), { requirements: [requirement] });
  try {
    run(check);
  } catch (error) {
    if (!(error instanceof CheckFailure)) throw error;
  }
  return decideOutcome({ severity: 'MUST', claims: check.claims });
}

test('expectRefused: a listed 500 WARNs on RFC 9110 15.6; on user details, which lists none, it FAILs on the row (at most WARN for invented input)', () => {
  const listed = outcomeOf('TOKEN-GRANT-TYPE-REQUIRED', (c) => c.expectRefused(response(500, { error: { code: 'internal_error' } }), { operation: 'token', what: 'a token request without grant_type', effect: unread }));
  assert.equal(listed.verdict, 'WARN');
  assert.equal(listed.basis?.kind, 'standard');
  assert.equal(listed.basis?.quote, sentenceById('RFC9110-15.6')!.quote);
  assert.match(listed.reason!, /^a token request without grant_type caused a server error 500 \(body: .*\): a server error where the client erred/);
  const unlisted = outcomeOf('USERS-MALFORMED-ID-REJECTED', (c) => c.expectRefused(response(500), { operation: 'userDetails', what: 'a user id that is a word', effect: GET_EXECUTES_NOTHING }));
  assert.equal(unlisted.verdict, 'FAIL');
  assert.equal(unlisted.basis?.quote, sentenceById('SPEC-7-USER-DETAILS-CODES')!.quote);
  const invented = outcomeOf('USERS-MALFORMED-ID-REJECTED', (c) => c.expectRefused(response(500), { operation: 'userDetails', what: 'a NUL byte', effect: GET_EXECUTES_NOTHING, input: 'invented' }));
  assert.equal(invented.verdict, 'WARN');
});

test('expectRefused: a 5xx that executed FAILs on the effect\'s sentence; a gateway\'s 502 is ERROR; without an effect read, the WARN says so', () => {
  const spent = outcomeOf('TOKEN-CLIENT-ID-REQUIRED', (c) =>
    c.expectRefused(response(500), { operation: 'token', what: 'a refresh without client_id', effect: executed('spent its refresh token', 'SPEC-4-1-RULE-2') }),
  );
  assert.equal(spent.verdict, 'FAIL');
  assert.equal(spent.basis?.quote, sentenceById('SPEC-4-1-RULE-2')!.quote);
  assert.match(spent.reason!, /caused a server error 500: it spent its refresh token/);
  assert.equal(outcomeOf('TOKEN-CLIENT-ID-REQUIRED', (c) => c.expectRefused(response(502), { operation: 'token', what: 'x', effect: unread })).verdict, 'ERROR');
  const blind = outcomeOf('WDA-UNKNOWN-USER-REJECTED', (c) => c.expectRefused(response(500), { operation: 'withdrawalAddress', what: 'creating an address for an unknown user' }));
  assert.equal(blind.verdict, 'WARN');
  assert.match(blind.reason!, /the check reads nothing that shows what the request did/);
});

test('expectRefused on accept: a 202 is judged by where the offer ended — executed FAIL, nothing WARN, unreadable ERROR; a 200 stays accepted', () => {
  const refuse = (status: number, effect?: ReturnType<typeof executed>) =>
    outcomeOf('OFFER-NEWEST-ONLY', (c) => c.expectRefused(response(status), { operation: 'acceptOffer', what: 'accept of the older offer', ...(effect ? { effect } : {}) }));
  const ran = refuse(202, executed('executed offer 1234abcd…: its status shows trade 9f9f9f9f…', 'OFFER-NEWEST-ONLY'));
  assert.equal(ran.verdict, 'FAIL');
  assert.match(ran.reason!, /answered 202 .* instead of a refusal, and it executed offer/);
  const none = refuse(202, nothing);
  assert.equal(none.verdict, 'WARN');
  assert.match(none.reason!, /the offer status shows no trade, so nothing executed/);
  assert.equal(refuse(202).verdict, 'ERROR', 'where the offer ended was not read');
  assert.equal(refuse(200, nothing).verdict, 'FAIL', 'a 200 is the accepted trade itself');
  // The token endpoint lists no 202: accepted, as any 2xx.
  assert.equal(outcomeOf('TOKEN-GRANT-TYPE-REQUIRED', (c) => c.expectRefused(response(202), { operation: 'token', what: 'x', effect: unread })).verdict, 'FAIL');
});

test('expectUnauthorized: a 5xx is judged on the operation\'s row; without one, nothing contradicts it', () => {
  assert.equal(outcomeOf('AUTH-BEARER-REQUIRED', (c) => c.expectUnauthorized(response(500), 'GET without bearer', { operation: 'userDetails', effect: GET_EXECUTES_NOTHING })).verdict, 'FAIL');
  assert.equal(outcomeOf('AUTH-BEARER-REQUIRED', (c) => c.expectUnauthorized(response(500), 'GET without bearer', { effect: GET_EXECUTES_NOTHING })).verdict, 'WARN');
  assert.equal(outcomeOf('WDA-BEARER-REQUIRED', (c) => c.expectUnauthorized(response(500), 'create without bearer', { operation: 'withdrawalAddress', effect: unread })).verdict, 'WARN');
});
