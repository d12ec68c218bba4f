// The one reading of the spec's "ISO 8601 timestamp" (src/schemas/iso8601.ts):
// what ISO 8601 allows beyond RFC 3339 passes with the instant it names, and
// what it does not allow is refused with the reason a FAIL message shows.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { iso8601Problem, parseIso8601, readIso8601 } from '../../src/schemas/iso8601.ts';

const at = (iso: string) => new Date(iso).getTime();

describe('accepted: ISO 8601 date and time with a UTC offset, and the instant it names', () => {
  const cases: Array<[text: string, instant: string]> = [
    ['2026-11-27T10:00:00Z', '2026-11-27T10:00:00.000Z'],
    ['2026-11-27T10:00:00+01:00', '2026-11-27T09:00:00.000Z'],
    ['2026-11-27T10:00:00-05:30', '2026-11-27T15:30:00.000Z'],
    ['2026-11-27T10:00:00+01', '2026-11-27T09:00:00.000Z'],
    ['2026-11-27T10:00:00.1Z', '2026-11-27T10:00:00.100Z'],
    ['2026-11-27T10:00:00.123456789Z', '2026-11-27T10:00:00.123Z'],
    ['2026-11-27T10:00:00,5+01:00', '2026-11-27T09:00:00.500Z'],
    ['2026-11-27t10:00:00z', '2026-11-27T10:00:00.000Z'],
    ['20261127T100000Z', '2026-11-27T10:00:00.000Z'],
    ['20261127T100000.123+0100', '2026-11-27T09:00:00.123Z'],
    // The offset in the other format, as Java's "Z" pattern and strftime's %z write it: read, the instant is certain.
    ['2026-11-27T10:00:00+0100', '2026-11-27T09:00:00.000Z'],
    ['20261127T100000+01:00', '2026-11-27T09:00:00.000Z'],
    ['20261127T100000,123Z', '2026-11-27T10:00:00.123Z'],
    ['20261127T100000+01', '2026-11-27T09:00:00.000Z'],
    ['20261127T1000-0230', '2026-11-27T12:30:00.000Z'],
    ['2026-11-27T10:00Z', '2026-11-27T10:00:00.000Z'],
    ['2026-11-27T10Z', '2026-11-27T10:00:00.000Z'],
    ['2026-11-27T10:30.5Z', '2026-11-27T10:30:30.000Z'],
    ['2026-11-27T10,25+00:00', '2026-11-27T10:15:00.000Z'],
    ['2026-331T10:00:00Z', '2026-11-27T10:00:00.000Z'],
    ['2026331T100000Z', '2026-11-27T10:00:00.000Z'],
    ['2026-W48-5T10:00:00Z', '2026-11-27T10:00:00.000Z'],
    ['2026W485T100000Z', '2026-11-27T10:00:00.000Z'],
    ['2020-W53-7T00:00:00Z', '2021-01-03T00:00:00.000Z'],
    ['2026-W53-5T00:00:00Z', '2027-01-01T00:00:00.000Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
    ['2024-366T00:00:00Z', '2024-12-31T00:00:00.000Z'],
    ['2026-11-27T24:00:00Z', '2026-11-28T00:00:00.000Z'],
    ['2026-11-27T10:00:00-00:00', '2026-11-27T10:00:00.000Z'],
    // Leap seconds count as the start of the next second, as POSIX time does.
    ['2016-12-31T23:59:60Z', '2017-01-01T00:00:00.000Z'],
    ['2016-12-31T23:59:60.5Z', '2017-01-01T00:00:00.500Z'],
    ['2017-01-01T00:59:60+01:00', '2017-01-01T00:00:00.000Z'],
    ['20150630T235960Z', '2015-07-01T00:00:00.000Z'],
  ];
  for (const [text, instant] of cases) {
    test(text, () => {
      assert.equal(iso8601Problem(text, 'with UTC offset'), undefined);
      assert.equal(parseIso8601(text), at(instant));
    });
  }

  test('years before 100 are not moved to the 1900s (Date.UTC does that)', () => {
    assert.equal(parseIso8601('0099-03-01T00:00:00Z'), at('0099-03-01T00:00:00Z'));
    assert.equal(parseIso8601('0000-01-01T00:00:00Z'), at('0000-01-01T00:00:00Z'));
  });

  test('the reading says the format, the lowest-order part and its fraction', () => {
    assert.deepEqual(readIso8601('20261127T100000,120+0100').timestamp, {
      epochMs: at('2026-11-27T09:00:00.120Z'),
      offsetMinutes: 60,
      format: 'basic',
      unitMs: 1_000,
      fraction: '120',
    });
    assert.deepEqual(readIso8601('2026-11-27T10:30').timestamp, {
      epochMs: at('2026-11-27T10:30:00Z'),
      offsetMinutes: undefined,
      format: 'extended',
      unitMs: 60_000,
      fraction: '',
    });
  });
});

describe('refused, with the reason', () => {
  const cases: Array<[text: string, why: RegExp]> = [
    ['2026-13-01T00:00:00Z', /no such date \(month 13\)/],
    ['2026-04-31T00:00:00Z', /day 31 of month 04/],
    ['2026-02-29T00:00:00Z', /day 29 of month 02/],
    ['2026-366T00:00:00Z', /day 366 of 2026/],
    ['2025-W53-1T00:00:00Z', /week 53 of 2025/],
    ['2026-W48-8T00:00:00Z', /weekday 8/],
    ['2026-11-27T25:00:00Z', /no such time of day \(25:00:00\)/],
    ['2026-11-27T24:00:01Z', /no such time of day/],
    ['2026-11-27T10:60:00Z', /no such time of day/],
    ['2026-11-27T10:00:61Z', /no such time of day/],
    ['2026-11-27T10:00:00+24:00', /no such UTC offset \(\+24:00\)/],
    ['2026-11-27T10:00:00+01:60', /no such UTC offset/],
    // A leap second only at 23:59:60 UTC on the last day of a month.
    ['2026-11-27T10:00:60Z', /leap second/],
    ['2016-12-30T23:59:60Z', /leap second/],
    ['2016-12-31T23:59:60+01:00', /leap second/],
    // ISO 8601 separates date and time with "T"; the space is RFC 3339's allowance (5.6), not ISO 8601's.
    ['2026-11-27 10:00', /a space separates the date and the time of day/],
    ['2026-11-27 10:00:00Z', /a space separates/],
    // Basic and extended are not mixed within the date and time of day (the offset may be written either way: below).
    ['20261127T10:00:00+01:00', /mixes basic and extended format/],
    ['2026-11-27T1000Z', /mixes basic and extended format/],
    ['2026-11-27T10:0000Z', /mixes basic and extended format/],
    ['2026-11-27', /no "T" and time of day/],
    ['1764237600', /no "T" and time of day/],
    ['Nov 27 2026 10:00:00 GMT+0100', /not an ISO 8601 calendar, ordinal or week date/], // Date.parse reads it
    ['+002026-11-27T10:00:00Z', /not an ISO 8601 calendar, ordinal or week date/],
    ['26-11-27T10:00:00Z', /not an ISO 8601 calendar/],
    ['2026-11-27T10:00:00.Z', /time of day or the UTC offset is not written as ISO 8601 does/],
    ['2026-11-27T10:00:00 Z', /time of day or the UTC offset/],
    ['2026-11-27T10:00:00+1', /time of day or the UTC offset/],
    [' 2026-11-27T10:00:00Z', /not an ISO 8601 calendar/],
  ];
  for (const [text, why] of cases) {
    test(JSON.stringify(text), () => {
      assert.match(iso8601Problem(text, 'with UTC offset') ?? '(accepted)', why);
      assert.equal(parseIso8601(text), undefined);
    });
  }

  test('no UTC offset: the spec asks for one, and a local time names no instant', () => {
    assert.match(iso8601Problem('2026-11-27T10:00:00', 'with UTC offset') ?? '', /no UTC offset/);
    assert.equal(parseIso8601('20261127T100000'), undefined);
    assert.ok(readIso8601('2026-11-27T10:00:00').timestamp, 'a local time is still ISO 8601, just not what the spec asks');
  });
});

describe('"in UTC" (2.3): a zero offset however written', () => {
  test('Z, +00:00, +0000, +00 and -00:00 are UTC', () => {
    for (const text of ['2026-11-27T10:00:00Z', '2026-11-27T10:00:00+00:00', '20261127T100000+0000', '20261127T100000,5+00', '2026-11-27T10:00:00-00:00']) {
      assert.equal(iso8601Problem(text, 'in UTC'), undefined, text);
    }
  });

  test('another offset is named', () => {
    assert.equal(iso8601Problem('2026-11-27T12:00:00+02:00', 'in UTC'), 'at UTC offset +02:00, not in UTC (Z or an offset of zero)');
    assert.match(iso8601Problem('20261127T043000-0530', 'in UTC') ?? '', /at UTC offset -05:30/);
    assert.match(iso8601Problem('2026-11-27T10:00:00', 'in UTC') ?? '', /no UTC offset/);
  });
});
