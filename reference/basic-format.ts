// ISO 8601 basic format for the timestamps-iso8601-basic variant: the
// reference keeps and computes its timestamps in extended format
// (2026-11-27T09:00:00.123Z, the ReferenceClock's), and this writes the same
// instant the way an implementation on a basic-format writer answers it
// (20261127T090000.123Z). Separate from the clock because only the answers
// change: what the reference stores and compares stays as it was.

export interface BasicSpelling {
  /** The decimal sign before the fraction of the seconds: ISO 8601 allows a comma or a full stop. */
  decimalSign?: '.' | ',';
  /** A whole-hour UTC offset as ±hh ("+02") instead of ±hhmm ("+0200"); Z stays Z. */
  hourOffset?: boolean;
}

const EXTENDED = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|([+-]\d{2}):(\d{2}))$/;

/** The extended-format timestamp `extended` in basic format: same digits, no separators. */
export function basicFormat(extended: string, spelling: BasicSpelling = {}): string {
  const m = EXTENDED.exec(extended);
  if (!m) throw new Error(`reference bug: ${extended} is not an extended-format timestamp with an offset`);
  const [, year, month, day, hour, minute, second, fraction, zone, offsetHours, offsetMinutes] = m;
  const offset = zone === 'Z' ? 'Z' : spelling.hourOffset && offsetMinutes === '00' ? offsetHours : `${offsetHours}${offsetMinutes}`;
  const decimals = fraction === undefined ? '' : `${spelling.decimalSign ?? '.'}${fraction}`;
  return `${year}${month}${day}T${hour}${minute}${second}${decimals}${offset}`;
}
