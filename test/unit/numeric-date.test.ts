// RFC 7519 §2: the time claims of a JWT count seconds. Only a claim that is
// absurd in seconds and plausible in milliseconds is called milliseconds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { millisecondTimeClaims } from '../../src/auth/numeric-date.ts';

const issued = Date.parse('2026-11-27T12:00:00Z');
const s = issued / 1000;

test('claims in seconds, near or far, are NumericDates', () => {
  assert.deepEqual(millisecondTimeClaims({ iat: s, exp: s + 3600, nbf: s }, issued), []);
  // A lifetime of a century and a clock a day off are odd, not a unit mix-up.
  assert.deepEqual(millisecondTimeClaims({ iat: s - 86_400, exp: s + 100 * 365 * 86_400 }, issued), []);
  // Fractions are allowed ("non-integer values can be represented").
  assert.deepEqual(millisecondTimeClaims({ exp: s + 0.5 }, issued), []);
});

test('a claim in milliseconds is named with the instant it means', () => {
  const found = millisecondTimeClaims({ iat: s, exp: (s + 3600) * 1000 }, issued);
  assert.deepEqual(found, [{ claim: 'exp', value: (s + 3600) * 1000, asMilliseconds: '2026-11-27T13:00:00.000Z' }]);
  assert.deepEqual(millisecondTimeClaims({ iat: issued, exp: issued + 3_600_000, nbf: issued }, issued).map((c) => c.claim), ['exp', 'iat', 'nbf']);
});

test('values that are no time at all, or not numbers, are left to other checks', () => {
  assert.deepEqual(millisecondTimeClaims({ exp: '1800000000000', iat: null, nbf: Number.NaN }, issued), []);
  // Absurd in both units: not the milliseconds mix-up.
  assert.deepEqual(millisecondTimeClaims({ exp: 1e18 }, issued), []);
});
