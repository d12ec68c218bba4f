// src/check/judgments.ts: a judgment a check body makes of what it observed,
// named and pure, is recorded as its name and input (redacted), and judged
// again from them to the claims the context made live; a judgment the
// judging suite no longer has, or one that would go on where the observing
// one ended the check, is ERROR, never a verdict on the implementation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defineJudgment, judgmentNamed } from '../../src/check/judgments.ts';
import { judgeRecord } from '../../src/check/record.ts';
import { CheckContext, CheckFailure } from '../../src/check/context.ts';
import { Redactor } from '../../src/http/redact.ts';

const meta = { severity: 'MUST' as const, requirements: ['AUTH-BEARER-REQUIRED'] };

/** A test judgment: an age over the declared maximum contradicts the profile; one near it warns. */
const ageJudgment = defineJudgment<{ ageSeconds: number; maxAgeSeconds: number; token: string }>('test.token-age', (input, says) => {
  if (input.ageSeconds > input.maxAgeSeconds) return says.failDeclared('auth.maxTokenAgeSeconds', input.maxAgeSeconds, `the token ${input.token} is ${input.ageSeconds} s old`);
  if (input.ageSeconds > input.maxAgeSeconds / 2) says.warn(`the token is ${input.ageSeconds} s old, over half its allowed age`);
  says.note('age read');
});

test('applied live, the record keeps the name and the redacted input; judged again, the same findings and basis', () => {
  const context = new CheckContext(new Redactor([['s3cr3t', 'token']]), { requirements: meta.requirements });
  assert.throws(() => context.judge(ageJudgment, { ageSeconds: 90, maxAgeSeconds: 60, token: 's3cr3t' }), CheckFailure);
  assert.equal(context.entries.length, 1);
  const [entry] = context.entries as Array<{ judgment: string; input: { token: string }; ended?: true }>;
  assert.equal(entry!.judgment, 'test.token-age');
  assert.equal(entry!.ended, true);
  assert.doesNotMatch(JSON.stringify(context.entries), /s3cr3t/, 'the input is kept redacted');
  const judged = judgeRecord(meta, { claims: context.entries });
  assert.equal(judged.verdict, 'FAIL');
  assert.equal(judged.basis?.kind, 'profile-declared');
  assert.equal(judged.basis?.profileKey, 'auth.maxTokenAgeSeconds');
  assert.equal(judged.basis?.declaredValue, 60);
  assert.deepEqual(judged.findings, context.claims.map(({ rests: _r, observed: _o, ...f }) => f), 'the claims made live, made again');
});

test('a judgment that does not end the check records its claims\' source and lets the check go on', () => {
  const context = new CheckContext(new Redactor([]), { requirements: meta.requirements });
  context.judge(ageJudgment, { ageSeconds: 40, maxAgeSeconds: 60, token: 't' });
  context.note('the check went on');
  const judged = judgeRecord(meta, { claims: context.entries });
  assert.equal(judged.verdict, 'WARN');
  assert.deepEqual(judged.findings.map((f) => f.message), ['the token is 40 s old, over half its allowed age', 'age read', 'the check went on']);
});

test('what a judging suite makes of a recorded judgment: its own version of it; none, ERROR; one that goes on past where the check ended, ERROR', () => {
  const unknown = judgeRecord(meta, { claims: [{ judgment: 'test.removed-judgment', input: {} }] });
  assert.equal(unknown.verdict, 'ERROR');
  assert.match(unknown.reason!, /this suite has no judgment test\.removed-judgment/);
  // Observed by a suite whose version of the judgment ended the check at 40 s; this one goes on.
  const wentOn = judgeRecord(meta, { claims: [{ judgment: 'test.token-age', input: { ageSeconds: 40, maxAgeSeconds: 60, token: 't' }, ended: true }] });
  assert.equal(wentOn.verdict, 'ERROR');
  assert.match(wentOn.reason!, /^not judged to the end: this check was ended by the judgment test\.token-age/);
});

test('a name is one judgment: a second definition is refused, and the registry finds the first', () => {
  assert.throws(() => defineJudgment('test.token-age', () => undefined), /two judgments have the name test\.token-age/);
  assert.equal(judgmentNamed('test.token-age'), ageJudgment);
});
