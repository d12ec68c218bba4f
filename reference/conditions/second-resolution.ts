// second-resolution: a server whose clock and database keep whole seconds.
// Every timestamp it writes has no fraction, and an offer's validity is
// judged the way such a server judges it: the offer is created at a whole
// second, expires at a whole second, and counts as expired once the current
// whole second is past that expiry — so it may stay acceptable up to about
// a second longer than its nominal validity, never shorter.
//
// The reference reads time and writes timestamps through a ReferenceClock
// (reference/context.ts); without the condition it is the millisecond clock
// the reference always had.

export interface ReferenceClock {
  /** The current instant as the server stores it. */
  now(): Date;
  /** An ISO 8601 timestamp in UTC ("…Z"); without a fraction under whole seconds. */
  iso(instant: Date): string;
  /** Whether `deadline` has passed at `now` (an offer's validity). */
  isPast(deadline: Date, now?: Date): boolean;
}

const SECOND_MS = 1_000;

const wholeSecond = (instant: Date) => new Date(Math.floor(instant.getTime() / SECOND_MS) * SECOND_MS);

/** The reference's millisecond clock: an instant is past its deadline from the deadline's millisecond on. */
const MILLISECOND_CLOCK: ReferenceClock = {
  now: () => new Date(),
  iso: (instant) => instant.toISOString(),
  isPast: (deadline, now = new Date()) => now >= deadline,
};

const SECOND_CLOCK: ReferenceClock = {
  now: () => wholeSecond(new Date()),
  iso: (instant) => wholeSecond(instant).toISOString().replace(/\.\d{3}Z$/, 'Z'),
  // Past only once the current whole second is after the deadline's whole second.
  isPast: (deadline, now = new Date()) => Math.floor(now.getTime() / SECOND_MS) > Math.floor(deadline.getTime() / SECOND_MS),
};

export function referenceClock(wholeSeconds: boolean): ReferenceClock {
  return wholeSeconds ? SECOND_CLOCK : MILLISECOND_CLOCK;
}
