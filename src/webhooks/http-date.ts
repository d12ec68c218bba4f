// The Date header of a delivery: an HTTP-date (RFC 9110, 5.6.7). Senders must
// generate the IMF-fixdate form, e.g. "Sun, 06 Nov 1994 08:49:37 GMT";
// recipients also read the two obsolete forms (RFC 850 and asctime). How
// close to the receiver's clock it must be is not shown by the spec: the
// profile's dateSkewSeconds, or a generous default.
const IMF_FIXDATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{2}) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
const RFC850_DATE = /^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\d{2})-(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)-(\d{2}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
const ASCTIME_DATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) ([ \d]\d) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** The instant of calendar fields in UTC; undefined for an impossible date or a day name that does not fit. */
function instant(dayName: string, year: number, month: string, day: number, hour: number, minute: number, second: number): Date | undefined {
  const fields = [year, MONTHS.indexOf(month), day, hour, minute, second] as const;
  const date = new Date(Date.UTC(...fields));
  // Date.UTC rolls 31 Feb over into March; an impossible date must not pass.
  const roundTrip = [date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate(), date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds()];
  if (roundTrip.some((v, i) => v !== fields[i])) return undefined;
  if (DAYS[date.getUTCDay()] !== dayName.slice(0, 3)) return undefined;
  return date;
}

/** The instant an IMF-fixdate names; undefined for any other format or an impossible date. */
export function parseImfFixdate(value: string): Date | undefined {
  const match = IMF_FIXDATE.exec(value);
  if (!match) return undefined;
  const [, dayName, day, month, year, hour, minute, second] = match;
  return instant(dayName!, Number(year), month!, Number(day), Number(hour), Number(minute), Number(second));
}

/** RFC 9110 5.6.7: a two-digit year more than 50 years in the future is the most recent past year with those digits. */
function fullYear(twoDigits: number, now: Date): number {
  const candidate = 2000 + twoDigits;
  return candidate > now.getUTCFullYear() + 50 ? candidate - 100 : candidate;
}

/** The instant of an HTTP-date in any of its three forms, and whether it is the IMF-fixdate a sender must generate. */
export function parseHttpDate(value: string, now = new Date()): { date: Date; imfFixdate: boolean } | undefined {
  const imf = parseImfFixdate(value);
  if (imf) return { date: imf, imfFixdate: true };
  const rfc850 = RFC850_DATE.exec(value);
  if (rfc850) {
    const [, dayName, day, month, year, hour, minute, second] = rfc850;
    const date = instant(dayName!, fullYear(Number(year), now), month!, Number(day), Number(hour), Number(minute), Number(second));
    return date && { date, imfFixdate: false };
  }
  const asctime = ASCTIME_DATE.exec(value);
  if (asctime) {
    const [, dayName, month, day, hour, minute, second, year] = asctime;
    const date = instant(dayName!, Number(year), month!, Number(day!.trim()), Number(hour), Number(minute), Number(second));
    return date && { date, imfFixdate: false };
  }
  return undefined;
}

export interface DateVerdict {
  ok: boolean;
  reason?: string;
  date?: Date;
  /** Date minus the receipt time, in seconds (negative: the Date lies in the past). */
  offsetSeconds?: number;
}

/** Date minus the receipt time in seconds, at the one-second resolution of an HTTP-date. */
export function dateOffsetSeconds(date: Date, receivedAt: Date): number {
  return (date.getTime() - Math.floor(receivedAt.getTime() / 1000) * 1000) / 1000;
}

export function describeOffset(offsetSeconds: number): string {
  return `${Math.abs(offsetSeconds)} s ${offsetSeconds < 0 ? 'behind' : 'ahead of'}`;
}

/** A strict reading: an IMF-fixdate within the skew. */
export function checkHttpDate(value: string | undefined, receivedAt: Date, skewSeconds: number): DateVerdict {
  if (value === undefined) return { ok: false, reason: 'no Date header' };
  const date = parseImfFixdate(value.trim());
  if (!date) return { ok: false, reason: `Date "${value}" is not an IMF-fixdate such as "Sun, 06 Nov 1994 08:49:37 GMT"` };
  const offsetSeconds = dateOffsetSeconds(date, receivedAt);
  if (Math.abs(offsetSeconds) > skewSeconds) {
    return {
      ok: false,
      reason: `Date "${value}" is ${describeOffset(offsetSeconds)} the receipt time ${receivedAt.toUTCString()} (allowed skew ${skewSeconds} s)`,
      date,
      offsetSeconds,
    };
  }
  return { ok: true, date, offsetSeconds };
}
