// What a users judgment's claim rests on when its details name an exchange:
// the answer that exchange got, as CheckContext derives it from
// `details.exchange` for a claim made inline. A judgment reads only its input,
// so it states it: a FAIL resting on a transient answer (503) stays ERROR.
import type { Observation } from '../../src/check/model.ts';

/** The answer `status` of the exchange, or nothing when no exchange was recorded (the context would find none). */
export function answered(status: number, exchange: number | undefined): Observation | undefined {
  return typeof exchange === 'number' ? { kind: 'answer', status } : undefined;
}
