// Deliveries whose event cannot be read (README "Verdicts": a check that
// cannot read what it needs says so). Every webhook check tells the event it
// caused by what its JSON carries (support.ts): a body that is JSON but not
// an object, or whose params is not an object (a string holding the params
// encoded once more, say), carries nothing a check can read. Such a delivery
// after the cause that names the user in its bytes is most likely the event,
// broken in one place: the body-shape check (6.1: "Body shape: an object
// with params.") judges it as the event and says what is wrong; every other
// check ends with ERROR naming that check, instead of reporting the event
// late or missing, which would blame its own requirement.
import type { ReceivedDelivery } from '../../src/webhooks/delivery.ts';
import { parsedBody } from '../../src/webhooks/delivery.ts';

/** The check that judges the body's shape, named by every check that cannot read a delivery. */
export const BODY_SHAPE_CHECK = 'webhooks.verification-body-schema';

function describe(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

/** Why the event in a JSON delivery cannot be read; undefined when it can, or when the body is not JSON (support.ts takes those as the event). */
export function whyUnreadable(delivery: ReceivedDelivery): string | undefined {
  const body = parsedBody(delivery);
  if (body === undefined) return undefined;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return `the body is ${describe(body)}, not an object`;
  if (!('params' in body)) return undefined;
  const params = (body as { params: unknown }).params;
  if (typeof params === 'object' && params !== null && !Array.isArray(params)) return undefined;
  const twice = typeof params === 'string' && isJsonObject(params) ? ' holding a JSON object (encoded twice)' : '';
  return `params is ${describe(params)}${twice}, not an object`;
}

function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** Whether one of the user's identifiers appears anywhere in the delivery's bytes (case aside, as a UUID's case carries no meaning). */
function mentionsAny(delivery: ReceivedDelivery, userIds: readonly string[]): boolean {
  const text = delivery.body.toString('utf8').toLowerCase();
  return userIds.some((id) => text.includes(id.toLowerCase()));
}

/** A delivery whose event cannot be read and that names one of the user's identifiers, among `candidates`; with why. */
export function unreadableEvent(candidates: readonly ReceivedDelivery[], userIds: readonly string[]): { delivery: ReceivedDelivery; why: string } | undefined {
  for (const delivery of candidates) {
    const why = whyUnreadable(delivery);
    if (why && mentionsAny(delivery, userIds)) return { delivery, why };
  }
  return undefined;
}

/** What a check that cannot read its event says (ERROR). */
export function unreadableReason(found: { delivery: ReceivedDelivery; why: string }): string {
  return `deliveries unreadable: delivery #${found.delivery.seq} names the user but ${found.why}, so the event in it cannot be read: see ${BODY_SHAPE_CHECK}`;
}
