// What one verification delivery's body is worth against 6.1
// (suites/webhooks/verification-params.ts), and the sentence each finding
// rests on: a param left out or of another type FAILs on the row of 6.1's
// table that lists it, null WARNs on that row, milliseconds FAIL on the
// timestamp row, a body without params FAILs on "Body shape: an object with
// params." Successful and failed verifications, first attempts and
// redeliveries are judged alike.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CheckContext, CheckFailure } from '../../src/check/context.ts';
import { decideOutcome } from '../../src/check/outcome.ts';
import { Redactor } from '../../src/http/redact.ts';
import { VERIFICATION_FAILED, VERIFICATION_SUCCEEDED, type UserUpdateEvent } from '../../suites/webhooks/events.ts';
import { judgeVerificationBody, observeVerification, verificationBodies } from '../../suites/webhooks/verification-params.ts';
import { syntheticDelivery } from '../support/deliveries.ts';

const USER = 'user-1';
const NOW_MS = Date.now();
const NOW = Math.floor(NOW_MS / 1000);
const CONTEXT = { eventUserIds: [USER], settings: { dateSkewSeconds: 300, dateSkewDeclared: false } };

function verification(params: Record<string, unknown>, event: UserUpdateEvent = VERIFICATION_FAILED) {
  const delivery = syntheticDelivery(3, { params });
  return observeVerification({ delivery, at: 'delivery #3, redelivery 1 of the event', caused: { event, atMs: 0, atEpochMs: NOW_MS - 1_000 } });
}

const params = (changes: Record<string, unknown> = {}) => ({ action: 'verification', success: false, user_pid: USER, timestamp: NOW, ...changes });

/** The verdict and basis the check gets from the judgements of one delivery. */
function outcomeOf(judged: ReturnType<typeof verification>) {
  const check = new CheckContext(new Redactor(), { requirements: ['WEBHOOK-BODY-SCHEMA'] });
  try {
    check.judge(verificationBodies, { deliveries: [judged], redeliveries: 1, ...CONTEXT });
  } catch (error) {
    assert.ok(error instanceof CheckFailure, String(error));
  }
  return decideOutcome({ severity: 'MUST', claims: check.claims });
}

test('the four params of a successful and of a failed verification pass; further members are allowed', () => {
  assert.deepEqual(judgeVerificationBody(verification(params()), CONTEXT), []);
  assert.deepEqual(judgeVerificationBody(verification(params({ success: true }), VERIFICATION_SUCCEEDED), CONTEXT), []);
  assert.deepEqual(judgeVerificationBody(verification(params({ source: 'x' })), CONTEXT), []);
});

test('a param left out or of another type FAILs on its row of 6.1; the message names the delivery', () => {
  const rows: Array<[Record<string, unknown>, string, RegExp]> = [
    [{ success: undefined }, 'success | boolean', /params leave out success/],
    [{ success: 'false' }, 'success | boolean', /params\.success "false" must be boolean/],
    [{ timestamp: undefined }, 'timestamp | integer, Unix time', /params leave out timestamp/],
    [{ timestamp: String(NOW) }, 'timestamp | integer, Unix time', /must be integer/],
    [{ user_pid: undefined }, 'user_pid | string, user identifier', /params leave out user_pid/],
    [{ action: 7 }, 'action | string', /params\.action 7 must be string/],
  ];
  for (const [changes, quote, message] of rows) {
    const outcome = outcomeOf(verification(JSON.parse(JSON.stringify(params(changes)))));
    assert.equal(outcome.verdict, 'FAIL', JSON.stringify(changes));
    assert.equal(outcome.basis?.quote, quote, JSON.stringify(changes));
    assert.match(outcome.reason!, message);
    assert.match(outcome.reason!, /^delivery #3, redelivery 1 of the event: /);
  }
});

test('a param that is null WARNs on its row', () => {
  const outcome = outcomeOf(verification(params({ success: null })));
  assert.equal(outcome.verdict, 'WARN');
  assert.equal(outcome.basis?.quote, 'success | boolean');
});

test('milliseconds FAIL on the timestamp row; a timestamp far from the event only WARNs without a declared skew', () => {
  const millis = outcomeOf(verification(params({ timestamp: NOW_MS })));
  assert.equal(millis.verdict, 'FAIL');
  assert.equal(millis.basis?.quote, 'timestamp | integer, Unix time');
  assert.match(millis.reason!, /looks like milliseconds/);
  assert.equal(outcomeOf(verification(params({ timestamp: NOW - 3_600 }))).verdict, 'WARN');
});

test('a body without params, or not JSON, FAILs on "Body shape: an object with params."', () => {
  const caused = { event: VERIFICATION_FAILED, atMs: 0, atEpochMs: NOW_MS - 1_000 };
  const flat = observeVerification({ delivery: syntheticDelivery(4, params()), at: 'delivery #4', caused });
  const outcome = outcomeOf(flat);
  assert.equal(outcome.verdict, 'FAIL');
  assert.equal(outcome.basis?.quote, 'Body shape: an object with params.');
  assert.match(outcome.reason!, /the event fields sit at the top level/);
  const text = observeVerification({ delivery: syntheticDelivery(5, 'not json'), at: 'delivery #5', caused });
  assert.equal(outcomeOf(text).verdict, 'FAIL');
});

test('params.user_pid that names another user WARNs on the user_pid row', () => {
  const outcome = outcomeOf(verification(params({ user_pid: 'someone-else' })));
  assert.equal(outcome.verdict, 'WARN');
  assert.equal(outcome.basis?.quote, 'user_pid | string, user identifier');
});
