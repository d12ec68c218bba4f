// The clock an implementation's offer timestamps show, and the waits the
// trading checks derive from it (suites/trading/clock.ts): a whole-second
// clock gets at least a second of margin past the declared validity, and a
// newer offer is created only in a later second than the older one's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ASSUMED_GRANULARITY_MS, clockOrAssumed, clockShownIn, expiryWaitMs, laterStepInMs, stepOf } from '../../suites/trading/clock.ts';
import type { HttpResponse } from '../../src/http/client.ts';

test('a timestamp shows the step of its fraction; none, or only zeros, is whole seconds', () => {
  assert.equal(stepOf('2026-03-01T10:00:00Z'), 1_000);
  assert.equal(stepOf('2026-03-01T10:00:00.000Z'), 1_000);
  assert.equal(stepOf('2026-03-01T10:00:00.123Z'), 1);
  assert.equal(stepOf('2026-03-01T10:00:00.120+01:00'), 10);
  assert.equal(stepOf('2026-03-01T10:00:00.5Z'), 100);
  assert.equal(stepOf('2026-03-01T10:00:00.123456Z'), 1, 'finer than a millisecond counts as a millisecond');
  assert.equal(stepOf('20260301T100000Z'), 1_000, 'ISO 8601 basic format (timestamps-iso8601-basic)');
  assert.equal(stepOf('20260301T100000,120+0100'), 10);
  assert.equal(stepOf('2026-03-01T10:00Z'), 60_000, 'a timestamp in whole minutes shows no finer clock');
  assert.equal(stepOf('not a time'), undefined);
  assert.equal(stepOf('10.00'), undefined);
});

test('numbers count only when named like an instant: epoch seconds or milliseconds', () => {
  assert.equal(stepOf(1_767_225_600, 'created_at'), 1_000);
  assert.equal(stepOf(1_767_225_600_123, 'valid_until'), 1);
  assert.equal(stepOf(1_767_225_600_000, 'valid_until'), 1_000);
  assert.equal(stepOf(1_767_225_600, 'amount'), undefined);
  assert.equal(stepOf(5_000, 'processing_time'), undefined);
});

test('the clock of an answer is the finest step any of its timestamps shows; none shown is undefined, then whole seconds assumed', () => {
  const millis = { data: { id: 'x', created_at: '2026-03-01T10:00:00.000Z', valid_until: '2026-03-01T10:00:01.250Z', trade: null } };
  assert.deepEqual(clockShownIn(millis), { granularityMs: 10, from: 'shown' });
  const seconds = { data: { created_at: '2026-03-01T10:00:00Z', valid_until: '2026-03-01T10:00:01Z', trade: { time: '2026-03-01T10:00:00+00:00' } } };
  assert.deepEqual(clockShownIn(seconds), { granularityMs: 1_000, from: 'shown' });
  assert.equal(clockShownIn({ data: { id: 'x', status: 'offered' } }), undefined);
  assert.equal(clockShownIn(undefined), undefined);
  assert.deepEqual(clockOrAssumed(undefined), { granularityMs: ASSUMED_GRANULARITY_MS, from: 'assumed' });
  assert.deepEqual(clockShownIn({ data: {} }, seconds), { granularityMs: 1_000, from: 'shown' }, 'a later answer (the status) may show what the first did not');
});

test('the expiry wait is the validity, one clock step and a margin of at least one step', () => {
  assert.equal(expiryWaitMs(1, 750, 1), 1_751);
  // Whole seconds: created at 10:00:00.999 is stored as 10:00:00 (or 10:00:01), expires at :01 (or :02), refused from :02 (or :03).
  assert.equal(expiryWaitMs(1, 750, 1_000), 3_000);
  assert.equal(expiryWaitMs(1, 1_500, 1_000), 3_500);
  assert.equal(expiryWaitMs(900, 750, 1_000), 902_000, 'a declared validity of 15 min is waited out, not capped');
});

test('a later clock step begins one step after the answer arrived, whatever the phase', () => {
  const res = { startedAt: new Date(10_000), durationMs: 200 } as HttpResponse;
  assert.equal(laterStepInMs(res, 1_000, 10_200), 1_000);
  assert.equal(laterStepInMs(res, 1_000, 10_900), 300);
  assert.equal(laterStepInMs(res, 1_000, 12_000), 0);
  assert.equal(laterStepInMs(res, 1, 10_300), 0);
});
