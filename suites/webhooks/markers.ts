// The receiving addresses the suite sets up are its receiver's, told apart by
// a marker in the query: the usual one every session sets up carries
// SUITE_MARKER, and the address check sets up two more of its own. A
// delivery's request target then says which address it was sent to, so a
// delivery to an address set up before another can be shown as such.
import type { ReceivedDelivery } from '../../src/webhooks/delivery.ts';

/** The query parameter that tells the addresses apart. */
export const MARKER = 'ptas-address';
/** The marker of the address every session sets up. */
export const SUITE_MARKER = 'suite';

export function markedAddress(receiverUrl: string, marker: string): string {
  const url = new URL(receiverUrl);
  url.searchParams.set(MARKER, marker);
  return url.href;
}

/** The marker of the address a delivery was sent to, if any. */
export function markerOf(delivery: ReceivedDelivery): string | undefined {
  return new URL(delivery.requestTarget, 'http://receiver.invalid').searchParams.get(MARKER) ?? undefined;
}
