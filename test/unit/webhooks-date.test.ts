// The Date of a delivery: IMF-fixdate only, within the configured skew.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkHttpDate, parseHttpDate, parseImfFixdate } from '../../src/webhooks/http-date.ts';

test('an IMF-fixdate parses to its instant, as toUTCString() writes it', () => {
  assert.equal(parseImfFixdate('Sun, 06 Nov 1994 08:49:37 GMT')?.toISOString(), '1994-11-06T08:49:37.000Z');
  const now = new Date(Math.floor(Date.now() / 1000) * 1000);
  assert.equal(parseImfFixdate(now.toUTCString())?.getTime(), now.getTime());
});

test('the obsolete formats, ISO 8601 and impossible dates are not IMF-fixdates', () => {
  for (const value of [
    'Sunday, 06-Nov-94 08:49:37 GMT', // RFC 850
    'Sun Nov  6 08:49:37 1994', // asctime
    '1994-11-06T08:49:37Z',
    'Sun, 06 Nov 1994 08:49:37 UTC',
    'Sun, 6 Nov 1994 08:49:37 GMT',
    'Mon, 06 Nov 1994 08:49:37 GMT', // 6 Nov 1994 was a Sunday
    'Tue, 31 Feb 2021 08:49:37 GMT',
    'Sun, 06 Nov 1994 24:49:37 GMT',
  ]) {
    assert.equal(parseImfFixdate(value), undefined, value);
  }
});

test('a Date within the skew passes; beyond it, either way, fails with the offset', () => {
  const received = new Date('2024-05-01T12:00:00.400Z');
  assert.deepEqual(checkHttpDate('Wed, 01 May 2024 12:00:00 GMT', received, 0).ok, true);
  assert.equal(checkHttpDate('Wed, 01 May 2024 11:59:00 GMT', received, 60).ok, true);

  const stale = checkHttpDate('Wed, 01 May 2024 11:50:00 GMT', received, 60);
  assert.equal(stale.ok, false);
  assert.equal(stale.offsetSeconds, -600);
  assert.match(stale.reason!, /600 s behind .*allowed skew 60 s/);

  const future = checkHttpDate('Wed, 01 May 2024 12:02:00 GMT', received, 60);
  assert.equal(future.ok, false);
  assert.match(future.reason!, /120 s ahead of/);
});

test('a missing or malformed Date fails with a reason', () => {
  assert.match(checkHttpDate(undefined, new Date(), 60).reason!, /no Date header/);
  assert.match(checkHttpDate('2024-05-01T12:00:00Z', new Date(), 60).reason!, /is not an IMF-fixdate/);
});

test('an HTTP-date in any of its three forms parses; only IMF-fixdate is the form a sender must generate', () => {
  const now = new Date('2024-05-01T12:00:00Z');
  assert.deepEqual(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT', now), { date: new Date('1994-11-06T08:49:37Z'), imfFixdate: true });
  assert.deepEqual(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT', now), { date: new Date('1994-11-06T08:49:37Z'), imfFixdate: false });
  assert.deepEqual(parseHttpDate('Sun Nov  6 08:49:37 1994', now), { date: new Date('1994-11-06T08:49:37Z'), imfFixdate: false });
  // A two-digit year is the most recent past year with those digits, unless within 50 years ahead.
  assert.equal(parseHttpDate('Wednesday, 01-May-24 12:00:00 GMT', now)?.date.getUTCFullYear(), 2024);
  for (const value of ['1994-11-06T08:49:37Z', 'yesterday', 'Mon, 06 Nov 1994 08:49:37 GMT']) assert.equal(parseHttpDate(value, now), undefined, value);
});
