// src/check/record.ts and src/check/rules.ts: a check's record keeps the
// rules it applied with what they read, and the judgment makes their claims
// again. A record judged by rules that end the check sooner drops what
// followed; one ended by the rules that observed it, judged by rules that
// would go on, cannot be judged to its end: ERROR, never a verdict on the
// implementation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CheckRecord, RecordedRule } from '../../src/check/record.ts';
import { judgeRecord } from '../../src/check/record.ts';
import { judgeRule } from '../../src/check/rules.ts';
import { GET_EXECUTES_NOTHING } from '../../src/check/server-error.ts';
import { CheckContext, CheckFailure } from '../../src/check/context.ts';
import type { HttpResponse } from '../../src/http/client.ts';
import { Redactor } from '../../src/http/redact.ts';

const meta = { severity: 'MUST' as const, requirements: ['AUTH-BEARER-REQUIRED'] };
const unauthorized = (status: number, ended?: true): RecordedRule => ({
  rule: { rule: 'unauthorized', what: 'GET /v2/users/u1 without a bearer credential', status, bodyHint: '', exchange: 1, operation: 'userDetails', effect: GET_EXECUTES_NOTHING },
  ...(ended ? { ended } : {}),
});

test('a rule recorded with what it read is judged again to the claims the context made live', () => {
  const context = new CheckContext(new Redactor([]), { requirements: meta.requirements });
  const res = { status: 200, exchangeId: 1, text: '', headers: {}, startedAt: new Date() } as unknown as HttpResponse;
  assert.throws(() => context.expectUnauthorized(res, 'GET /v2/users/u1 without a bearer credential', { operation: 'userDetails', effect: GET_EXECUTES_NOTHING }), CheckFailure);
  assert.deepEqual(context.entries, [unauthorized(200, true)], 'the record keeps the rule and what it read, not the FAIL');
  const judged = judgeRecord(meta, { claims: context.entries });
  assert.equal(judged.verdict, 'FAIL');
  assert.equal(judged.reason, 'GET /v2/users/u1 without a bearer credential was accepted: 200');
  assert.equal(judged.basis?.requirement, 'AUTH-BEARER-REQUIRED');
  assert.deepEqual(judged.findings, context.claims.map(({ rests: _r, observed: _o, ...f }) => f), 'the same findings as the claims made live');
});

test('a refusal with another 4xx is a WARN on the operation\'s section 7 row, and the check goes on', () => {
  const judged = judgeRule({ rule: 'refused', what: 'a tampered token', status: 418, bodyHint: '', exchange: 2, operation: 'userDetails' });
  assert.equal(judged.ends, false);
  assert.deepEqual(judged.claims.map((c) => [c.level, 'rests' in c ? c.rests : undefined]), [['WARN', { kind: 'sentence', on: 'SPEC-7-USER-DETAILS-CODES' }]]);
});

test('rules that would end the check sooner than the record did: what followed is not judged', () => {
  // Observed by rules that let a 200 through (not ended), then a FAIL the check said later.
  const record: CheckRecord = {
    claims: [unauthorized(200), { level: 'FAIL', message: 'something later', rests: { kind: 'sentence' } }],
  };
  const judged = judgeRecord(meta, record);
  assert.deepEqual(judged.findings.map((f) => f.message), ['GET /v2/users/u1 without a bearer credential was accepted: 200']);
});

test('a record ended by the rules that observed it, judged by rules that go on: ERROR, not judged to the end', () => {
  // Observed by rules under which a 401 ended the check; these rules let a 401 pass.
  const judged = judgeRecord(meta, { claims: [unauthorized(401, true)] });
  assert.equal(judged.verdict, 'ERROR');
  assert.match(judged.reason!, /^not judged to the end: this check was ended at "GET \/v2\/users\/u1 without a bearer credential" \(answered 401\)/);
});
