// The one outcome function (src/check/outcome.ts) and the check context that
// feeds it (src/check/context.ts): every basis rule, and that a finding shows
// the sentence it rests on — the spec's, a standard's the spec names, or the
// profile's declaration — not merely its requirement's first quote.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decideFinding, decideOutcome, type Claim } from '../../src/check/outcome.ts';
import { CheckContext, CheckFailure } from '../../src/check/context.ts';
import { describeBasis, specBasis } from '../../src/check/basis.ts';
import { Redactor } from '../../src/http/redact.ts';
import { requirementById, sentenceById } from '../../src/requirements.ts';
import type { HttpResponse } from '../../src/http/client.ts';

const basis = specBasis(['TOKEN-REFRESH-SINGLE-USE'])!;
const fail = (extra: Partial<Claim> = {}): Claim => ({ level: 'FAIL', message: 'refused', basis, ...extra });

test('a transient answer (429; 502, 503, 504 from a gateway) or no answer never decides a rule: ERROR "not observed"', () => {
  for (const status of [429, 502, 503, 504]) {
    const finding = decideFinding(fail({ observed: { kind: 'answer', status } }), 'MUST');
    assert.equal(finding.level, 'ERROR');
    assert.match(finding.message, new RegExp(`^not observed: refused — the answer was ${status}`));
    assert.equal(finding.basis, undefined, 'an ERROR rests on no sentence');
  }
  assert.equal(decideFinding({ level: 'WARN', message: 'odd code', observed: { kind: 'answer', status: 429 } }, 'MUST').level, 'ERROR');
  assert.equal(decideFinding(fail({ observed: { kind: 'no-answer', failure: 'CONNECTION_RESET' } }), 'MUST').level, 'ERROR');
  assert.equal(decideFinding(fail({ observed: { kind: 'answer', status: 500 } }), 'MUST').level, 'FAIL');
});

test('a wait that ran out: profile-declared FAIL when declared, ERROR after an undeclared default', () => {
  const declared = decideFinding(fail({ basis: { ...basis, kind: 'profile-declared', profileKey: 'webhooks.deliveryTimeoutMs' }, observed: { kind: 'late', waitedMs: 5000, declaredBy: 'webhooks.deliveryTimeoutMs' } }), 'MUST');
  assert.equal(declared.level, 'FAIL');
  const undeclared = decideFinding(fail({ basis: undefined, observed: { kind: 'late', waitedMs: 30_000 } }), 'MUST');
  assert.equal(undeclared.level, 'ERROR');
  assert.match(undeclared.message, /default wait of 30000 ms/);
});

test('no FAIL without a sentence; a spec FAIL of a SHOULD or REVIEW check is a WARN, a profile-declared one stays FAIL', () => {
  assert.equal(decideFinding(fail({ basis: undefined }), 'MUST').level, 'WARN');
  assert.equal(decideFinding(fail(), 'SHOULD').level, 'WARN');
  assert.equal(decideFinding(fail(), 'SHOULD').basis, basis, 'the WARN keeps the sentence of the failed expectation');
  assert.equal(decideFinding(fail({ basis: { ...basis, kind: 'profile-declared', profileKey: 'k' } }), 'REVIEW').level, 'FAIL');
});

test('invented out-of-domain input answered outside the section 7 list, and race losers, are at most WARN', () => {
  const invented = decideFinding(fail({ observed: { kind: 'answer', status: 414, input: 'invented', operation: 'userDetails' } }), 'MUST');
  assert.equal(invented.level, 'WARN');
  assert.match(invented.message, /outside the list section 7 gives for user details v2/);
  // In the list, or in-domain input: the rule holds.
  assert.equal(decideFinding(fail({ observed: { kind: 'answer', status: 404, input: 'invented', operation: 'userDetails' } }), 'MUST').level, 'FAIL');
  assert.equal(decideFinding(fail({ observed: { kind: 'answer', status: 414, operation: 'userDetails' } }), 'MUST').level, 'FAIL');
  assert.equal(decideFinding(fail({ observed: { kind: 'race-loser', status: 500 } }), 'MUST').level, 'WARN');
});

test('the verdict is the worst finding, a FAIL above an ERROR; SKIP only when nothing failed', () => {
  const decided = decideOutcome({ severity: 'MUST', claims: [{ level: 'WARN', message: 'w' }, fail(), { level: 'INFO', message: 'i' }], stoppedBy: 'later: timed out' });
  assert.equal(decided.verdict, 'FAIL');
  assert.equal(decided.reason, 'refused');
  assert.deepEqual(decided.basis, basis);
  assert.deepEqual(decided.findings.map((f) => f.level), ['WARN', 'FAIL', 'INFO', 'ERROR']);
  assert.equal(decideOutcome({ severity: 'MUST', claims: [{ level: 'INFO', message: 'fine' }] }).verdict, 'PASS');
  assert.equal(decideOutcome({ severity: 'MUST', claims: [{ level: 'REVIEW', message: 'r' }], skipped: { reason: 'no key', configKey: 'a.b' } }).verdict, 'SKIP');
});

test('a check the run stopped while it observed is ERROR whatever it claimed so far; its claims stay as findings', () => {
  const decided = decideOutcome({ severity: 'MUST', claims: [fail()], interrupted: 'the run was stopped' });
  assert.equal(decided.verdict, 'ERROR');
  assert.equal(decided.reason, 'the run was stopped');
  assert.equal(decided.basis, undefined);
  assert.deepEqual(decided.findings.map((f) => f.level), ['FAIL', 'ERROR']);
});

function response(status: number, exchangeId = 1): HttpResponse {
  return { exchangeId, status, headers: {}, body: Buffer.alloc(0), text: '', json: undefined, truncated: false, durationMs: 1, startedAt: new Date() };
}

function contextFor(requirements: string[], profile = {}): CheckContext {
  return new CheckContext(new Redactor(), { requirements, profile });
}

function ended(run: () => void): void {
  assert.throws(run, CheckFailure);
}

test('a finding names the sentence it rests on: a standard the requirement lists, a spec sentence, or the profile key and value', () => {
  const digest = contextFor(['WEBHOOK-CONTENT-DIGEST']);
  ended(() => digest.fail('Content-Digest does not match the body', undefined, { on: 'RFC9530-2' }));
  const rfc = digest.claims[0]!.basis!;
  assert.equal(rfc.kind, 'standard');
  assert.equal(rfc.standard, 'RFC 9530');
  assert.equal(rfc.quote, sentenceById('RFC9530-2')!.quote);
  assert.match(describeBasis(rfc), /^RFC 9530 section 2 \(the spec names Content-Digest\): "The Content-Digest HTTP field/);
  assert.notEqual(rfc.quote, requirementById('WEBHOOK-CONTENT-DIGEST')!.quote, 'not the requirement\'s "not shown" quote');

  const declared = contextFor(['WEBHOOK-RETRY-POLICY'], { webhooks: { retryDelaysMs: [100, 200] } });
  ended(() => declared.failDeclared('webhooks.retryDelaysMs', 'no redelivery'));
  assert.deepEqual(declared.claims[0]!.basis!.declaredValue, [100, 200]);
  assert.match(describeBasis(declared.claims[0]!.basis!), /^profile-declared webhooks\.retryDelaysMs = \[100,200\]; spec 6\.2/);

  // A standard the requirement does not list is a bug in the suite, not a finding.
  assert.throws(() => contextFor(['TOKEN-CC-ISSUES-PAIR']).fail('x', undefined, { on: 'RFC9530-2' }), /suite bug/);
});

test('expectRefused: a 429 or 413 is not the refusal a rule demands; a code outside the list WARNs on section 7\'s row', () => {
  for (const status of [429, 413]) {
    const check = contextFor(['TOKEN-REFRESH-SINGLE-USE']);
    ended(() => check.expectRefused(response(status), { operation: 'token', what: 'a reused refresh token' }));
    assert.equal(decideOutcome({ severity: 'MUST', claims: check.claims }).verdict, 'ERROR');
  }
  const check = contextFor(['TOKEN-REFRESH-SINGLE-USE']);
  check.expectRefused(response(400), { operation: 'token', what: 'a reused refresh token' });
  const outcome = decideOutcome({ severity: 'MUST', claims: check.claims });
  assert.equal(outcome.verdict, 'WARN');
  assert.equal(outcome.basis!.quote, sentenceById('SPEC-7-TOKEN-CODES')!.quote);
  const accepted = contextFor(['TOKEN-REFRESH-SINGLE-USE']);
  ended(() => accepted.expectRefused(response(200), { operation: 'token', what: 'a reused refresh token' }));
  assert.equal(decideOutcome({ severity: 'MUST', claims: accepted.claims }).verdict, 'FAIL');
});
