// What one delivery's Content-Digest and Date are worth (suites/webhooks/
// judgements.ts), and the sentence each FAIL rests on: a digest over other
// bytes contradicts RFC 9530 section 2 under the algorithm the header names,
// declared or not; a missing header contradicts 5 rule 5; a Date that is no
// HTTP-date contradicts RFC 9110 5.6.7. What the spec leaves open (which
// algorithm) stays the profile's to declare.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { CheckContext, CheckFailure } from '../../src/check/context.ts';
import { decideOutcome } from '../../src/check/outcome.ts';
import { Redactor } from '../../src/http/redact.ts';
import type { ReceivedDelivery } from '../../src/webhooks/delivery.ts';
import { defineJudgment } from '../../src/check/judgments.ts';
import { judgeContentDigest, judgeDate, observeUnsigned, say, type Judgement } from '../../suites/webhooks/judgements.ts';
import { syntheticDelivery } from '../support/deliveries.ts';

const BODY = { params: { action: 'verification', success: true, user_pid: 'u', timestamp: 1 } };

function receivedWith(lines: Array<[string, string]>, receivedAt?: Date): ReceivedDelivery {
  const delivery = syntheticDelivery(1, BODY, 'k');
  delivery.fieldLines.push(...lines);
  return receivedAt ? { ...delivery, receivedAt } : delivery;
}

/** A delivery with these header lines, as the judgements read it (judgements.ts observeUnsigned). */
const withHeaders = (lines: Array<[string, string]>, receivedAt?: Date) => observeUnsigned(receivedWith(lines, receivedAt));

/** A judgement said through a check's context, as the named judgments say theirs. */
const said = defineJudgment<Judgement>('test.webhooks-judgement', (judgement, says) => say(says, judgement));

const digestOf = (algorithm: 'sha256' | 'sha512' | 'md5', text: string) => createHash(algorithm).update(text).digest('base64');
const compact = JSON.stringify(BODY);
const pretty = JSON.stringify(BODY, null, 2);

/** The verdict and basis a check with these requirements gets from one judgement. */
function outcomeOf(judgement: Judgement, requirements = ['WEBHOOK-CONTENT-DIGEST']) {
  const check = new CheckContext(new Redactor(), { requirements, profile: { baseUrl: 'http://x', credentials: { clientId: 'c', clientSecret: 's' }, webhooks: { digestAlgorithms: ['sha-256'] } } });
  try {
    check.judge(said, judgement);
  } catch (error) {
    assert.ok(error instanceof CheckFailure, String(error));
  }
  return decideOutcome({ severity: 'MUST', claims: check.claims });
}

test('a digest over other bytes under sha-256 or sha-512 FAILs on RFC 9530 section 2, declared or not', () => {
  for (const [name, node] of [['sha-256', 'sha256'], ['sha-512', 'sha512']] as const) {
    const delivery = withHeaders([['content-digest', `${name}=:${digestOf(node, pretty)}:`]]);
    for (const digestAlgorithms of [undefined, ['sha-256', 'sha-512'] as const]) {
      const judgement = judgeContentDigest(delivery, { digestAlgorithms: digestAlgorithms ? [...digestAlgorithms] : undefined });
      assert.equal(judgement.kind, 'fail', `${name}, declared ${String(digestAlgorithms)}`);
      const outcome = outcomeOf(judgement);
      assert.equal(outcome.verdict, 'FAIL');
      assert.equal(outcome.basis?.kind, 'standard');
      assert.equal(outcome.basis?.kind === 'standard' && outcome.basis.standard, 'RFC 9530');
      assert.match(outcome.basis!.quote, /actual message content/);
    }
  }
  // Every-delivery judges with the same sentence (its requirement lists it).
  const judgement = judgeContentDigest(withHeaders([['content-digest', `sha-256=:${digestOf('sha256', pretty)}:`]]), {});
  assert.equal(outcomeOf(judgement, ['WEBHOOK-EVERY-DELIVERY']).basis?.kind, 'standard');
});

test('the digest of the delivered bytes passes, declared or not; a declaration the header does not carry is profile-declared', () => {
  const sha512 = withHeaders([['content-digest', `sha-512=:${digestOf('sha512', compact)}:`]]);
  assert.equal(judgeContentDigest(sha512, {}).kind, 'pass');
  assert.equal(judgeContentDigest(sha512, { digestAlgorithms: ['sha-256', 'sha-512'] }).kind, 'pass');
  const undeclaredOne = judgeContentDigest(sha512, { digestAlgorithms: ['sha-256'] });
  assert.deepEqual([undeclaredOne.kind, undeclaredOne.kind === 'fail-declared' && undeclaredOne.key], ['fail-declared', 'webhooks.digestAlgorithms']);
});

test('what the suite cannot verify stays REVIEW or WARN: an unknown algorithm, a deprecated one', () => {
  assert.equal(judgeContentDigest(withHeaders([['content-digest', 'blake3=:AAAA:']]), {}).kind, 'review');
  assert.equal(judgeContentDigest(withHeaders([['content-digest', `md5=:${digestOf('md5', pretty)}:`]]), {}).kind, 'warn', 'a deprecated mismatch');
  assert.equal(judgeContentDigest(withHeaders([['content-digest', `md5=:${digestOf('md5', compact)}:`]]), {}).kind, 'warn', 'deprecated only');
});

test("a Content-Digest not in RFC 9530's form FAILs on section 2, declared or not: no dictionary, or a known algorithm's member that is no byte sequence", () => {
  for (const value of ['not a dictionary ((', `sha-256=${digestOf('sha256', compact)}`, 'sha-256=42']) {
    for (const settings of [{}, { digestAlgorithms: ['sha-256' as const] }]) {
      const judged = judgeContentDigest(withHeaders([['content-digest', value]]), settings);
      assert.deepEqual([judged.kind, judged.kind === 'fail' && judged.on], ['fail', 'RFC9530-2-DICTIONARY'], value);
    }
  }
  assert.equal(outcomeOf(judgeContentDigest(withHeaders([['content-digest', 'sha-256=42']]), {}), ['WEBHOOK-CONTENT-DIGEST']).basis?.kind, 'standard');
});

test('a missing Content-Digest or Date FAILs on 5 rule 5; a Date that is no HTTP-date on RFC 9110 5.6.7', () => {
  const missing = judgeContentDigest(withHeaders([]), {});
  assert.deepEqual([missing.kind, missing.kind === 'fail' && missing.on], ['fail', 'SPEC-5-RULE-5-HEADERS']);
  const outcome = outcomeOf(missing);
  assert.equal(outcome.basis?.clause, '5 rule 5');
  assert.doesNotMatch(outcome.basis!.quote, /not shown/, 'not the requirement quote that says the computation is not shown');
  const noDate = judgeDate(withHeaders([]), { dateSkewSeconds: 60, dateSkewDeclared: true });
  assert.equal(noDate.kind === 'fail' && noDate.on, 'SPEC-5-RULE-5-HEADERS');
  const badDate = judgeDate(withHeaders([['date', '2024-01-01T00:00:00Z']]), { dateSkewSeconds: 60, dateSkewDeclared: true });
  assert.equal(badDate.kind === 'fail' && badDate.on, 'RFC9110-5.6.7');
  assert.equal(outcomeOf(badDate, ['WEBHOOK-DATE']).basis?.kind, 'standard');
});

test('an obsolete HTTP-date form FAILs on RFC 9110 5.6.7 as a malformed one does: a sender must generate IMF-fixdate', () => {
  const now = new Date();
  const [, day, month, year, time] = now.toUTCString().split(' ');
  const weekday = now.toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' });
  for (const obsolete of [`${weekday}, ${day}-${month}-${year!.slice(2)} ${time} GMT`, `${weekday.slice(0, 3)} ${month} ${String(Number(day)).padStart(2, ' ')} ${time} ${year}`]) {
    const judged = judgeDate(withHeaders([['date', obsolete]], now), { dateSkewSeconds: 60, dateSkewDeclared: true });
    assert.deepEqual([judged.kind, judged.kind === 'fail' && judged.on], ['fail', 'RFC9110-5.6.7'], obsolete);
  }
  assert.equal(judgeDate(withHeaders([['date', now.toUTCString()]], now), { dateSkewSeconds: 60, dateSkewDeclared: true }).kind, 'pass');
});
