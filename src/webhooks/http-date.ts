// The Date header of a delivery: an IMF-fixdate (RFC 9110, 5.6.7), the one
// format a sender must generate, e.g. "Sun, 06 Nov 1994 08:49:37 GMT", close
// enough to the receiver's clock to be useful against replays.
const IMF_FIXDATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{2}) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** The instant an IMF-fixdate names; undefined for any other format or an impossible date. */
export function parseImfFixdate(value: string): Date | undefined {
  const match = IMF_FIXDATE.exec(value);
  if (!match) return undefined;
  const [, dayName, day, month, year, hour, minute, second] = match;
  const fields = [Number(year), MONTHS.indexOf(month!), Number(day), Number(hour), Number(minute), Number(second)] as const;
  const date = new Date(Date.UTC(...fields));
  // Date.UTC rolls 31 Feb over into March; an impossible date must not pass.
  const roundTrip = [date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate(), date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds()];
  if (roundTrip.some((v, i) => v !== fields[i])) return undefined;
  if (DAYS[date.getUTCDay()] !== dayName) return undefined;
  return date;
}

export interface DateVerdict {
  ok: boolean;
  reason?: string;
  date?: Date;
  /** Date minus the receipt time, in seconds (negative: the Date lies in the past). */
  offsetSeconds?: number;
}

export function checkHttpDate(value: string | undefined, receivedAt: Date, skewSeconds: number): DateVerdict {
  if (value === undefined) return { ok: false, reason: 'no Date header' };
  const date = parseImfFixdate(value.trim());
  if (!date) return { ok: false, reason: `Date "${value}" is not an IMF-fixdate such as "Sun, 06 Nov 1994 08:49:37 GMT"` };
  // Date has one-second resolution: compare against the receipt time truncated the same way.
  const offsetSeconds = (date.getTime() - Math.floor(receivedAt.getTime() / 1000) * 1000) / 1000;
  if (Math.abs(offsetSeconds) > skewSeconds) {
    const direction = offsetSeconds < 0 ? 'behind' : 'ahead of';
    return {
      ok: false,
      reason: `Date "${value}" is ${Math.abs(offsetSeconds)} s ${direction} the receipt time ${receivedAt.toUTCString()} (allowed skew ${skewSeconds} s)`,
      date,
      offsetSeconds,
    };
  }
  return { ok: true, date, offsetSeconds };
}
