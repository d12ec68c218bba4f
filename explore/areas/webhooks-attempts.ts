// Which event of a webhooks case each delivery of its session is an attempt
// of, and the receiver's answer plan as the hub's script. Pure: the unit
// tests read them without a receiver.
//
// A delivery is the first attempt of the event whose delivery the session
// took for it (support.ts findDeliveryOf); any other is an attempt of the
// earlier first one it repeats (same content, or same key and traits:
// isRepeatOf), failing that of one whose key or content it carries
// (isAttemptOf), as suites/webhooks/verification-body.check.ts counts them.
// Repeats come first so that a key shared by two distinct events (the
// webhook-key-per-user-action fault) does not make one event's redelivery
// the other's. A delivery of none of the events (another notification, 6.2)
// is -1: only the every-delivery rule judges it.
import { isAttemptOf, isRepeatOf, type ReceivedDelivery } from '../../src/webhooks/delivery.ts';
import type { ResponseStep } from '../../src/webhooks/routing.ts';

/** What the receiver answers an attempt: an acknowledgement of 6.1 (no body), a non-acknowledgement, or no answer before the sender's timeout. */
export type Answer = 200 | 201 | 202 | 204 | 500 | 503 | 'timeout';

export const ACKNOWLEDGEMENTS: readonly Answer[] = [200, 201, 202, 204];
export const REFUSALS: readonly Answer[] = [500, 503];

export const isAcknowledgement = (status: number): boolean => (ACKNOWLEDGEMENTS as readonly unknown[]).includes(status);

/**
 * The hub's script for an answer plan: step n answers the nth attempt of
 * each event, the last repeats (src/webhooks/routing.ts). A timeout is an
 * acknowledgement held past the sender's timeout: the profile's
 * webhooks.slowResponseMs, which must exceed it (the retry-after-timeout
 * check's provocation); if the sender waits for it after all, it was an
 * acknowledgement, and is judged as one.
 */
export function scriptOf(plan: readonly Answer[], slowResponseMs: number | undefined): ResponseStep[] {
  return plan.map((answer) => {
    if (answer !== 'timeout') return { status: answer };
    if (!slowResponseMs) throw new Error('a timeout step needs webhooks.slowResponseMs');
    return { status: 204, delayMs: slowResponseMs };
  });
}

/** The index of the event `delivery` is an attempt of (its first included), or -1. */
export function eventOf(delivery: ReceivedDelivery, firsts: readonly (ReceivedDelivery | undefined)[]): number {
  const own = firsts.indexOf(delivery);
  if (own >= 0) return own;
  const earlier = firsts.flatMap((first, i) => (first && first.seq < delivery.seq ? [{ first, i }] : []));
  return (earlier.find(({ first }) => isRepeatOf(delivery, first)) ?? earlier.find(({ first }) => isAttemptOf(delivery, first)))?.i ?? -1;
}

/** Every attempt of each event, in order of arrival (its first one first); and the deliveries of none of them. */
export function attemptsByEvent(deliveries: readonly ReceivedDelivery[], firsts: readonly (ReceivedDelivery | undefined)[]): { attempts: ReceivedDelivery[][]; others: ReceivedDelivery[] } {
  const attempts: ReceivedDelivery[][] = firsts.map(() => []);
  const others: ReceivedDelivery[] = [];
  for (const delivery of deliveries) {
    const i = eventOf(delivery, firsts);
    if (i < 0) others.push(delivery);
    // An attempt that arrived before the event's first was taken is another event's (two identical bodies): never this one's.
    else if (delivery.seq >= firsts[i]!.seq) attempts[i]!.push(delivery);
    else others.push(delivery);
  }
  return { attempts, others };
}
