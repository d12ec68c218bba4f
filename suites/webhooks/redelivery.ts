// What "the same event again" means in the acknowledgement checks (README
// "Verdicts": an event is its idempotency key). 5 rule 5 gives every
// delivery X-BTS-Idempotency-Key so that "a receiver can use them to ...
// de-duplicate messages": a delivery carrying the acknowledged delivery's key
// is its redelivery, and a delivery under another key is another event, even
// when its content is byte for byte the same (two events of one user and one
// kind within a second are). Content matching stays where keys are what is
// under test (webhooks.redelivery-keeps-key, through WebhookSession.redeliveryOf).
//
// How much a redelivery after a written acknowledgement weighs: once is what
// an at-least-once sender may do (the key is there for it), so a warning; the
// same again after the receiver confirmed the redelivery too, twice in a row
// for the same code, is a sender that does not take that code as "confirm
// receipt" (6.1): a FAIL.
import type { CheckContext } from '../../runner/index.ts';
import type { ResolvedProfile } from '../../src/config/profile.ts';
import { observationWindowMs, retryObservationWindowMs, type WebhooksProfile } from '../../src/config/sections/webhooks.ts';
import { idempotencyKey, isRepeatOf, type ReceivedDelivery } from '../../src/webhooks/delivery.ts';

/** What watching for a redelivery needs of a webhook session (support.ts), which itself asks isAttemptByKey. */
interface Deliveries {
  readonly deliveries: readonly ReceivedDelivery[];
  waitFor(predicate: (d: ReceivedDelivery) => boolean, timeoutMs: number): Promise<ReceivedDelivery | undefined>;
}

/** Whether `candidate` carries `first`'s X-BTS-Idempotency-Key (and is another delivery): a redelivery of its event. Never when `first` carries no key. */
export function carriesKeyOf(candidate: ReceivedDelivery, first: ReceivedDelivery): boolean {
  const key = idempotencyKey(first);
  return key !== undefined && candidate !== first && idempotencyKey(candidate) === key;
}

/**
 * Another attempt of the event `earlier` is, by its key: the same key and the
 * same action, success and status (isRepeatOf). Content alone is not enough:
 * two events of one kind for one user within a second have the same bytes.
 */
export function isAttemptByKey(candidate: ReceivedDelivery, earlier: ReceivedDelivery): boolean {
  const key = idempotencyKey(earlier);
  return key !== undefined && idempotencyKey(candidate) === key && isRepeatOf(candidate, earlier);
}

/**
 * How long to watch for a redelivery after the receiver confirmed a
 * redelivery: a sender that ignores the confirmation retries that second
 * attempt after its second declared delay (webhooks.retryDelaysMs), with the
 * same margin as the first; without a declared second delay, the observation
 * window.
 */
export function secondWindowMs(webhooks: Pick<WebhooksProfile, 'observationWindowMs' | 'retryDelaysMs'>): number {
  const window = observationWindowMs(webhooks);
  const second = webhooks.retryDelaysMs?.[1];
  return second === undefined ? window : Math.max(window, retryObservationWindowMs([second]));
}

/** What a check that watches for a second redelivery adds to its waits (runner/define.ts waitsMs). */
export function secondWindowWaitMs(profile: ResolvedProfile): number {
  return secondWindowMs(profile.webhooks ?? {});
}

/**
 * The first delivery carrying `first`'s key that arrived after `afterMs`
 * (this process's clock), waiting until `windowMs` after it; undefined when
 * none came. `previous` is the delivery that was answered at `afterMs` (the
 * one whose redelivery is awaited): it is not its own redelivery.
 */
export async function redeliveryByKey(
  session: Deliveries,
  check: CheckContext,
  first: ReceivedDelivery,
  previous: ReceivedDelivery,
  afterMs: number,
  windowMs: number,
): Promise<ReceivedDelivery | undefined> {
  const isRedelivery = (d: ReceivedDelivery) => d !== previous && d.receivedAtMs > afterMs && carriesKeyOf(d, first);
  const found = await session.waitFor(isRedelivery, Math.max(0, afterMs + windowMs - performance.now()));
  check.event(found ? `delivery #${found.seq} carries the key of #${first.seq}: a redelivery` : 'observation window closed', `${windowMs} ms after delivery #${previous.seq} was answered`);
  return found;
}

/** Deliveries with `first`'s content under another key: other events (README "Verdicts"), named in a note so that a reader sees why they were not taken as redeliveries. */
export function sameContentOtherKey(session: Deliveries, first: ReceivedDelivery): ReceivedDelivery[] {
  return session.deliveries.filter((d) => d !== first && d.body.equals(first.body) && idempotencyKey(d) !== idempotencyKey(first));
}
