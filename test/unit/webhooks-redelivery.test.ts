// What "the same event again" and "a delivery that cannot be read" mean to
// the webhook checks (suites/webhooks/redelivery.ts, unreadable.ts): an
// event is its idempotency key, content alone makes no redelivery, and a
// delivery whose params is not an object names the body-shape check.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { carriesKeyOf, isAttemptByKey, secondWindowMs } from '../../suites/webhooks/redelivery.ts';
import { BODY_SHAPE_CHECK, unreadableEvent, unreadableReason, whyUnreadable } from '../../suites/webhooks/unreadable.ts';
import { observationWindowMs, retryObservationWindowMs } from '../../src/config/sections/webhooks.ts';
import { syntheticDelivery } from '../support/deliveries.ts';

const USER = '6f1c2a9e-0b7d-4c3e-9a51-2d8e4f6b7c10';
const params = (success: boolean) => ({ action: 'verification', success, user_pid: USER, timestamp: 1_700_000_000 });

test('a redelivery carries the key of the delivery it repeats; the same content under another key is another event', () => {
  const first = syntheticDelivery(1, { params: params(true) }, 'key-a');
  assert.equal(carriesKeyOf(syntheticDelivery(2, { params: params(true) }, 'key-a'), first), true);
  // Two events of one kind for one user within a second: byte for byte the same, told apart by their keys.
  assert.equal(carriesKeyOf(syntheticDelivery(3, { params: params(true) }, 'key-b'), first), false);
  assert.equal(carriesKeyOf(first, first), false, 'a delivery is not its own redelivery');
  const keyless = syntheticDelivery(4, { params: params(true) });
  assert.equal(carriesKeyOf(syntheticDelivery(5, { params: params(true) }), keyless), false, 'without a key nothing is a redelivery by key');
});

test('an attempt by key: the same key and the same action, success and status; a key shared by distinct events is not enough', () => {
  const earlier = syntheticDelivery(1, { params: params(true) }, 'key-a');
  assert.equal(isAttemptByKey(syntheticDelivery(2, { params: { ...params(true), timestamp: 1_700_000_003 } }, 'key-a'), earlier), true, 'a body rebuilt per attempt');
  assert.equal(isAttemptByKey(syntheticDelivery(3, { params: params(false) }, 'key-a'), earlier), false, 'another event under a reused key');
  assert.equal(isAttemptByKey(syntheticDelivery(4, { params: params(true) }, 'key-b'), earlier), false, 'the same content under another key');
});

test('the window after a confirmed redelivery is sized from the second declared retry delay', () => {
  assert.equal(secondWindowMs({}), observationWindowMs({}));
  assert.equal(secondWindowMs({ retryDelaysMs: [100] }), observationWindowMs({ retryDelaysMs: [100] }), 'no second delay declared');
  assert.equal(secondWindowMs({ retryDelaysMs: [5_000, 15_000] }), retryObservationWindowMs([15_000]));
  assert.equal(secondWindowMs({ retryDelaysMs: [5_000, 15_000], observationWindowMs: 30_000 }), 30_000, 'never shorter than the window');
});

test('a delivery whose params is not an object cannot be read; one that is not JSON is left to the non-JSON fallback', () => {
  assert.equal(whyUnreadable(syntheticDelivery(1, { params: JSON.stringify(params(true)) })), 'params is a string holding a JSON object (encoded twice), not an object');
  assert.equal(whyUnreadable(syntheticDelivery(2, { params: [params(true)] })), 'params is an array, not an object');
  assert.equal(whyUnreadable(syntheticDelivery(3, [params(true)])), 'the body is an array, not an object');
  assert.equal(whyUnreadable(syntheticDelivery(4, { params: params(true) })), undefined);
  assert.equal(whyUnreadable(syntheticDelivery(5, params(true))), undefined, 'fields at the top level are read there (the body-shape check judges them)');
  assert.equal(whyUnreadable(syntheticDelivery(6, 'not json')), undefined);
});

test('an unreadable delivery is the event only if it names the user; the reason names the body-shape check', () => {
  const other = syntheticDelivery(1, { params: JSON.stringify({ action: 'verification', user_pid: 'someone-else' }) });
  const ours = syntheticDelivery(2, { params: JSON.stringify({ ...params(true), user_pid: USER.toUpperCase() }) });
  assert.equal(unreadableEvent([other], [USER]), undefined);
  const found = unreadableEvent([other, ours], [USER]);
  assert.equal(found?.delivery, ours);
  assert.match(unreadableReason(found!), new RegExp(`^deliveries unreadable: delivery #2 names the user but params is a string .*: see ${BODY_SHAPE_CHECK.replace('.', '\\.')}$`));
});
