// The explored webhooks area without a receiver: its cases and their
// shrinking (explore/areas/webhooks.ts), which event a delivery is an
// attempt of (webhooks-attempts.ts), and its own judgments
// (webhooks-judgments.ts): what FAILs, and what is only ever recorded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { caseArbitrary, describeCase, kindOfCase, usersFor, webhooksModel, type CaseChoices, type WebhooksCase } from '../../explore/areas/webhooks.ts';
import { attemptsByEvent, eventOf, scriptOf } from '../../explore/areas/webhooks-attempts.ts';
import { acknowledgementEndsEvent, distinctEventKeys, retryWithoutSchedule, withWarningsRecorded, type AcknowledgementSeen } from '../../explore/areas/webhooks-judgments.ts';
import { defineJudgment } from '../../src/check/judgments.ts';
import { eventsToCause, VERIFICATION_FAILED, VERIFICATION_SUCCEEDED } from '../../suites/webhooks/events.ts';
import type { ReceivedDelivery } from '../../src/webhooks/delivery.ts';
import { referenceProfile } from '../../reference/profile.ts';

const choices: CaseChoices = { events: eventsToCause('risk_evaluation'), canTimeOut: true };

function shrunk(predicate: (c: WebhooksCase) => boolean, from: CaseChoices = choices): WebhooksCase {
  const details = fc.check(fc.property(caseArbitrary(from), (c) => !predicate(c)), { seed: 42, numRuns: 2_000 });
  assert.ok(details.failed, 'a case the predicate holds for was generated');
  return details.counterexample![0];
}

test('a case: one to three distinct events the profile can cause, and one to three answers', () => {
  fc.assert(
    fc.property(caseArbitrary(choices), (c) => {
      assert.ok(c.events.length >= 1 && c.events.length <= 3);
      assert.equal(new Set(c.events.map((e) => JSON.stringify(e))).size, c.events.length);
      for (const e of c.events) assert.ok(choices.events.includes(e));
      assert.ok(c.answers.length >= 1 && c.answers.length <= 3);
    }),
    { seed: 1, numRuns: 300 },
  );
});

test('no timeout step unless the profile declares an answer delay past the sender timeout', () => {
  fc.assert(fc.property(caseArbitrary({ ...choices, canTimeOut: false }), (c) => !c.answers.includes('timeout')), { seed: 2, numRuns: 500 });
  assert.deepEqual(shrunk((c) => c.answers.includes('timeout')).answers.filter((a) => a !== 200), ['timeout']);
});

test('shrinking walks to the plainest case: one successful verification acknowledged with 200', () => {
  assert.deepEqual(shrunk(() => true), { events: [VERIFICATION_SUCCEEDED], answers: [200] });
  // The first target: a failed verification's body, shrunk to that event alone, acknowledged with 200.
  assert.deepEqual(shrunk((c) => c.events.some((e) => e.success === false)), { events: [VERIFICATION_FAILED], answers: [200] });
  // A refusal: one 500, the plainest refusal, beside the plainest of everything else.
  const refused = shrunk((c) => c.answers.some((a) => a === 500 || a === 503));
  assert.deepEqual(refused.events, [VERIFICATION_SUCCEEDED]);
  assert.deepEqual(refused.answers.filter((a) => a !== 200), [500]);
  // Two events of one action, to the two verifications.
  assert.deepEqual(shrunk((c) => c.events.filter((e) => e.action === 'verification').length === 2).events.length, 2);
});

test('a case is described in one line, and its kind without its values', () => {
  const c: WebhooksCase = { events: [VERIFICATION_FAILED, { action: 'risk_evaluation', status: 'finished' }], answers: [500, 'timeout', 204] };
  assert.equal(describeCase(c), 'cause verification (success false), risk_evaluation (status finished); attempts answered 500, then no answer before the timeout, then 204 (the last repeats)');
  assert.equal(kindOfCase(c), 'verification, risk_evaluation; refuse, timeout, ack');
  assert.equal(describeCase({ events: [VERIFICATION_SUCCEEDED], answers: [200] }), 'cause verification (success true); every attempt answered 200');
});

test('the answer plan as the hub script: a timeout is an acknowledgement held past the declared delay', () => {
  assert.deepEqual(scriptOf([500, 'timeout', 204], 1_500), [{ status: 500 }, { status: 204, delayMs: 1_500 }, { status: 204 }]);
  assert.throws(() => scriptOf(['timeout'], undefined), /slowResponseMs/);
});

let seq = 0;
function delivery(body: unknown, key: string | undefined): ReceivedDelivery {
  seq++;
  return {
    seq,
    method: 'POST',
    requestTarget: '/hook',
    targetUri: 'http://127.0.0.1/hook',
    fieldLines: [['content-type', 'application/json'], ...(key ? ([['x-bts-idempotency-key', key]] as Array<[string, string]>) : [])],
    body: Buffer.from(JSON.stringify(body)),
    bodyTruncated: false,
    receivedAt: new Date(),
    receivedAtMs: seq,
  };
}

const verification = (success: boolean) => ({ params: { action: 'verification', success, user_pid: 'u1', timestamp: 1_700_000_000 } });

test('which event a delivery is an attempt of: repeats first, so a key two events share does not merge them', () => {
  const ok = delivery(verification(true), 'k1');
  const failed = delivery(verification(false), 'k1');
  const okAgain = delivery(verification(true), 'k1');
  const failedAgainNewKey = delivery(verification(false), 'k9');
  const other = delivery({ event: 'offer_status', params: { offer_id: 'o', status: 'done', user_pid: 'u1' } }, 'k5');
  const firsts = [ok, failed];
  assert.equal(eventOf(okAgain, firsts), 0);
  assert.equal(eventOf(failedAgainNewKey, firsts), 1);
  assert.equal(eventOf(other, firsts), -1);
  assert.deepEqual(attemptsByEvent([ok, failed, okAgain, failedAgainNewKey, other], firsts), { attempts: [[ok, okAgain], [failed, failedAgainNewKey]], others: [other] });
  // An event not delivered has no attempts; a delivery before a first is not its attempt.
  const early = delivery(verification(true), 'k7');
  const late = delivery(verification(true), 'k7');
  assert.deepEqual(attemptsByEvent([early, late], [undefined, late]), { attempts: [[], [late]], others: [early] });
});

const levels = (judged: { claims: Array<{ level: string }> }) => judged.claims.map((c) => c.level);
const ack = (s: number, again?: number, written = true): AcknowledgementSeen => ({ seq: s, code: 204, written, windowMs: 1_000, ...(again ? { again: { seq: again, at: `+${again} ms` } } : {}) });

test('acknowledgements: the event again after two in a row FAILs on 6.1; once is recorded; none is a note', () => {
  const timeline = (acknowledgements: AcknowledgementSeen[]) => ({ event: 'verification (success true)', key: 'k', acknowledgements, sameContentOtherKey: [] });
  const twice = acknowledgementEndsEvent.judge(timeline([ack(1, 2), ack(2, 3)]));
  assert.deepEqual(levels(twice), ['FAIL']);
  assert.equal(twice.ends, true);
  assert.deepEqual(twice.claims[0]!.rests, { kind: 'sentence', on: 'SPEC-6-1-ACK' });
  assert.deepEqual(levels(acknowledgementEndsEvent.judge(timeline([ack(1, 2), ack(2)]))), ['REVIEW']);
  assert.deepEqual(levels(acknowledgementEndsEvent.judge(timeline([ack(1)]))), ['INFO']);
  // An acknowledgement the sender hung up on confirmed nothing: what came after it is recorded.
  assert.deepEqual(levels(acknowledgementEndsEvent.judge(timeline([ack(1, 2, false), ack(2, 3)]))), ['REVIEW']);
});

test('without a declared retry schedule, what follows a non-acknowledgement is only ever recorded', () => {
  const base = { event: 'verification (success true)', provocation: 'answering 500 to delivery #1', observationWindowMs: 5_000 };
  assert.deepEqual(levels(retryWithoutSchedule.judge(base)), ['REVIEW']);
  assert.deepEqual(levels(retryWithoutSchedule.judge({ ...base, again: { seq: 2, at: '+100 ms', sameKey: false } })), ['REVIEW']);
});

test('distinct events under one key FAIL; distinct keys pass', () => {
  const a = { event: 'verification (success true)', seq: 1, key: 'k1' };
  assert.deepEqual(levels(distinctEventKeys.judge({ events: [a, { event: 'verification (success false)', seq: 2, key: 'k1' }] })), ['FAIL']);
  assert.deepEqual(levels(distinctEventKeys.judge({ events: [a, { event: 'blacklisting', seq: 2, key: 'k2' }] })), ['INFO']);
});

test('the model explores what the profile can cause, and says which key it lacks otherwise', () => {
  const prepared = webhooksModel.prepare(referenceProfile('http://127.0.0.1:1'));
  assert.ok(!('unexplorable' in prepared));
  assert.deepEqual(webhooksModel.prepare({ baseUrl: 'http://x', webhooks: {} } as never), {
    unexplorable: 'no operation that causes a user-update event is configured',
    configKey: 'webhooks.trigger',
  });
  assert.equal(new Set(webhooksModel.rules.map((r) => r.id)).size, webhooksModel.rules.length);
  for (const rule of webhooksModel.rules) assert.match(rule.id, /^explore\.webhooks\./);
});

test("each case starts with the next of the profile's users, so a late attempt of one case's event does not reach the next", () => {
  const users = [['a'], ['b', 'b-pid'], ['c']];
  assert.deepEqual(usersFor(users, 0), users);
  assert.deepEqual(usersFor(users, 1), [['b', 'b-pid'], ['c'], ['a']]);
  assert.deepEqual(usersFor(users, 5), [['c'], ['a'], ['b', 'b-pid']]);
});

test("the suite's warnings on what the spec leaves open are recorded; its FAILs stay FAILs on the same basis", () => {
  const inner = defineJudgment<{ fail?: 'sentence' | 'declared' }>('test.explore-webhooks.inner', ({ fail }, says) => {
    says.warn('base64url signature', { delivery: 1 });
    if (fail === 'sentence') says.fail('digest mismatch', { delivery: 1 }, { on: 'SPEC-6-1-ACK' });
    if (fail === 'declared') says.failDeclared('webhooks.dateSkewSeconds', 60, 'date too far');
  });
  const wrapped = withWarningsRecorded(inner, 'test.explore-webhooks.wrapped');
  assert.deepEqual(levels(wrapped.judge({})), ['REVIEW']);
  const failed = wrapped.judge({ fail: 'sentence' });
  assert.deepEqual(levels(failed), ['REVIEW', 'FAIL']);
  assert.deepEqual(failed.claims[1]!.rests, { kind: 'sentence', on: 'SPEC-6-1-ACK' });
  assert.equal(failed.ends, true);
  assert.deepEqual(wrapped.judge({ fail: 'declared' }).claims[1]!.rests, { kind: 'declared', profileKey: 'webhooks.dateSkewSeconds', declaredValue: 60 });
});
