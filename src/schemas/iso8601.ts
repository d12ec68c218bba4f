// ISO 8601 date and time of day, the one reading of every timestamp the spec
// calls "ISO 8601": registered_at (2.2) and the trade time (2.4), "ISO 8601
// timestamp with UTC offset", and created_at (2.3), "ISO 8601 timestamp in
// UTC". The schemas use it as the formats below (registry.ts registers them),
// the checks for their messages, and code that needs the instant reads it
// with parseIso8601 instead of Date.parse (which takes what ISO 8601 refuses,
// "Nov 27 2026", and refuses what ISO 8601 allows, the basic format).
//
// What ISO 8601 (ISO 8601:2004 4.1-4.3) allows and RFC 3339's narrower
// date-time does not, all accepted here:
// - the basic format (20261127T100000+0100) beside the extended one
//   (2026-11-27T10:00:00+01:00); ordinal (2026-331) and week (2026-W48-5)
//   dates beside calendar dates;
// - a time of day of reduced precision (T10:00, T10), a decimal fraction of
//   any length on its lowest-order part, after a comma or a full stop;
// - an offset Z, ±hh, or ±hh:mm (extended) / ±hhmm (basic); 24:00 for the end
//   of a day; second 60, a positive leap second (at 23:59:60 UTC at the end of
//   a month, where leap seconds are inserted).
// What it refuses, each a finding on the spec's "ISO 8601 timestamp":
// - a space between date and time: ISO 8601 separates them with "T" (RFC
//   3339 5.6: "ISO 8601 defines date and time separated by "T"", a space being
//   RFC 3339's own allowance "for the sake of readability"). Lower-case "t"
//   and "z" pass: RFC 3339 5.6 says ISO 8601 allows them;
// - basic and extended mixed in the date and time of day (2026-11-27T100000):
//   ISO 8601:2004 4.3.2-4.3.3 write a date and time completely in basic or
//   completely in extended format. The UTC offset alone in the other format
//   (2026-11-27T10:00:00+0100, as Java's "Z" pattern and strftime's %z write
//   it) is read, not refused: it names the instant without doubt, and a FAIL
//   on a separator the spec never shows would not be defensible;
// - dates and times that do not exist (month 13, 31 April, 25:00, a second 60
//   that is no leap second, an offset of 24 hours or more) and expanded years
//   (+002026), which need a prior agreement the spec does not show.

export interface Iso8601Timestamp {
  /**
   * The instant in ms since the epoch, sub-millisecond digits cut off; a leap
   * second counts as the start of the next second, as POSIX time counts it.
   * Of a local time (no offset), the instant it would be in UTC.
   */
  epochMs: number;
  /** Minutes east of UTC; undefined for a local time without an offset. */
  offsetMinutes: number | undefined;
  format: 'basic' | 'extended';
  /** The lowest-order part written, in ms: 3,600,000 (hours), 60,000 (minutes) or 1,000 (seconds). */
  unitMs: number;
  /** The digits of the decimal fraction of that part ('' without one). */
  fraction: string;
}

export type Iso8601Reading = { timestamp: Iso8601Timestamp; problem?: undefined } | { timestamp?: undefined; problem: string };

/** What the spec says of a timestamp field: 2.2 and 2.4 "with UTC offset", 2.3 "in UTC". */
export type TimestampRule = 'with UTC offset' | 'in UTC';

/** The ajv formats of the spec's timestamps (registry.ts), by the rule each holds. */
export const ISO8601_FORMATS: Readonly<Record<string, TimestampRule>> = {
  'iso8601-date-time': 'with UTC offset',
  'iso8601-utc-date-time': 'in UTC',
};

const EXTENDED_DATE = /^(\d{4})-(?:(\d{2})-(\d{2})|(\d{3})|W(\d{2})-(\d))$/;
const BASIC_DATE = /^(\d{4})(?:(\d{2})(\d{2})|(\d{3})|W(\d{2})(\d))$/;
// hh[[:]mm[[:]ss]][(.|,)fraction][Z | ±hh[[:]mm]]: whether each ":" is there decides the format below.
const TIME_AND_OFFSET = /^(\d{2})(?:(:?)(\d{2})(?:(:?)(\d{2}))?)?(?:[.,](\d+))?(?:([Zz])|([+-])(\d{2})(?:(:?)(\d{2}))?)?$/;

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
const SECOND_MS = 1_000;
const DAY_MS = 86_400_000;

const isLeapYear = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const daysInMonth = (y: number, m: number) => [31, isLeapYear(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!;

/** Days from 1970-01-01 to a date of the proleptic Gregorian calendar (H. Hinnant's days_from_civil; Date.UTC maps years 0-99 to 1900-1999). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  return era * 146_097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719_468;
}

/** ISO weekday, Monday 1 … Sunday 7, of a day counted from 1970-01-01 (a Thursday). */
const isoWeekday = (days: number) => ((((days % 7) + 7) % 7) + 3) % 7 + 1;

/** The date part as days from the epoch, or why it names no day. */
function dayOf(match: RegExpExecArray): number | string {
  const [, yearText, month, day, ordinal, week, weekday] = match;
  const year = Number(yearText);
  if (month !== undefined) {
    const m = Number(month);
    const d = Number(day);
    if (m < 1 || m > 12) return `month ${month}`;
    if (d < 1 || d > daysInMonth(year, m)) return `day ${day} of month ${month}`;
    return daysFromCivil(year, m, d);
  }
  if (ordinal !== undefined) {
    const n = Number(ordinal);
    if (n < 1 || n > (isLeapYear(year) ? 366 : 365)) return `day ${ordinal} of ${yearText}`;
    return daysFromCivil(year, 1, 1) + n - 1;
  }
  // Week 1 is the week with 4 January in it; a year has 53 weeks when it begins on a Thursday, or on a Wednesday in a leap year.
  const w = Number(week);
  const d = Number(weekday);
  const jan1 = isoWeekday(daysFromCivil(year, 1, 1));
  const weeks = jan1 === 4 || (jan1 === 3 && isLeapYear(year)) ? 53 : 52;
  if (w < 1 || w > weeks) return `week ${week} of ${yearText}`;
  if (d < 1 || d > 7) return `weekday ${weekday}`;
  const jan4 = daysFromCivil(year, 1, 4);
  return jan4 - (isoWeekday(jan4) - 1) + (w - 1) * 7 + (d - 1);
}

/** Reads `text` as an ISO 8601 date and time of day: the timestamp, or why it is none. */
export function readIso8601(text: string): Iso8601Reading {
  const designator = text.search(/[Tt]/);
  if (designator < 0) {
    return { problem: /^\S+ \S+$/.test(text) ? 'a space separates the date and the time of day, where ISO 8601 writes "T"' : 'no "T" and time of day after a date' };
  }
  const dateText = text.slice(0, designator);
  const extendedDate = EXTENDED_DATE.exec(dateText);
  const dateMatch = extendedDate ?? BASIC_DATE.exec(dateText);
  if (!dateMatch) return { problem: `the date ${JSON.stringify(dateText)} is not an ISO 8601 calendar, ordinal or week date (2026-11-27, 2026-331, 2026-W48-5, or without "-")` };
  const time = TIME_AND_OFFSET.exec(text.slice(designator + 1));
  if (!time) return { problem: 'the time of day or the UTC offset is not written as ISO 8601 does (hh:mm:ss, hhmmss, optional fraction, then Z, ±hh:mm, ±hhmm or ±hh)' };
  const [, hh, sep1, mm, sep2, ss, fraction = '', zulu, sign, oh, , om] = time;

  // Each part of the time of day that shows a format (":" there or not) must show the date's; the offset may show either (above).
  const format = extendedDate ? 'extended' : 'basic';
  const shown = [mm === undefined ? undefined : sep1, ss === undefined ? undefined : sep2];
  if (shown.some((sep) => sep !== undefined && (sep === ':') !== (format === 'extended'))) {
    return { problem: 'it mixes basic and extended format in the date and time of day, where ISO 8601 writes them completely in one (2026-11-27T10:00:00 or 20261127T100000)' };
  }

  const day = dayOf(dateMatch);
  if (typeof day === 'string') return { problem: `no such date (${day})` };
  const [hour, minute, second] = [hh, mm, ss].map((part) => Number(part ?? 0)) as [number, number, number];
  const endOfDay = hour === 24 && minute === 0 && second === 0 && /^0*$/.test(fraction);
  if ((hour > 23 && !endOfDay) || minute > 59 || second > 60) return { problem: `no such time of day (${[hh, mm, ss].filter((p) => p !== undefined).join(':')})` };
  if (oh !== undefined && (Number(oh) > 23 || Number(om ?? 0) > 59)) return { problem: `no such UTC offset (${sign}${oh}${om === undefined ? '' : `:${om}`})` };

  const offsetMinutes = zulu ? 0 : sign ? (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om ?? 0)) : undefined;
  const unitMs = ss !== undefined ? SECOND_MS : mm !== undefined ? MINUTE_MS : HOUR_MS;
  const wholeMs = day * DAY_MS + hour * HOUR_MS + minute * MINUTE_MS + second * SECOND_MS - (offsetMinutes ?? 0) * MINUTE_MS;
  // A leap second ends a UTC month: the second after it is the first of a month, at midnight UTC.
  if (second === 60 && !(wholeMs % DAY_MS === 0 && new Date(wholeMs).getUTCDate() === 1)) {
    return { problem: `second 60 is a leap second only at 23:59:60 UTC at the end of a month (${hh}:${mm}:${ss} is not)` };
  }
  const epochMs = wholeMs + Math.floor(Number(`0.${fraction || '0'}`) * unitMs);
  return { timestamp: { epochMs, offsetMinutes, format, unitMs, fraction } };
}

const formatOffset = (minutes: number) => {
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
};

/** Why a reading is not an ISO 8601 timestamp as `rule` asks (a UTC offset; for 'in UTC' a zero one), else undefined. */
function ruleProblem(reading: Iso8601Reading, rule: TimestampRule): string | undefined {
  if (reading.problem !== undefined) return reading.problem;
  const { offsetMinutes } = reading.timestamp;
  if (offsetMinutes === undefined) return 'no UTC offset (Z, ±hh:mm, ±hhmm or ±hh): a local time names no instant';
  // RFC 3339 4.3 reads -00:00 as UTC too (with the local offset unknown).
  if (rule === 'in UTC' && offsetMinutes !== 0) return `at UTC offset ${formatOffset(offsetMinutes)}, not in UTC (Z or an offset of zero)`;
  return undefined;
}

/** Why `text` is not an ISO 8601 timestamp as `rule` asks, else undefined. */
export function iso8601Problem(text: string, rule: TimestampRule): string | undefined {
  return ruleProblem(readIso8601(text), rule);
}

/** The instant of an ISO 8601 timestamp with a UTC offset (ms since the epoch), or undefined when `text` is none. */
export function parseIso8601(text: string): number | undefined {
  const reading = readIso8601(text);
  return ruleProblem(reading, 'with UTC offset') === undefined ? reading.timestamp!.epochMs : undefined;
}
