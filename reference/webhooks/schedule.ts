// When the deliveries of an event are attempted and how long each may take:
// by default at once, retried with exponential backoff (webhookRetryBaseMs,
// doubling, up to webhookMaxAttempts; twenty times later with the
// webhook-retry-slower variant; never with the webhook-no-retry fault), each
// attempt given webhookTimeoutMs. The slow-webhooks condition
// (reference/conditions/slow-webhooks.ts) delays the first attempt, spaces
// the retries seconds apart and gives each attempt seconds.
import type { ReferenceContext } from '../context.ts';
import { SLOW_DELIVERY_TIMEOUT_MS, SLOW_FIRST_DELIVERY_MS, slowRetryDelaysMs } from '../conditions/slow-webhooks.ts';

/** webhook-retry-slower: the first retry comes this many times later than the base (2 s by default, after the suite's window). */
const SLOWER_RETRY_FACTOR = 20;

export interface DeliverySchedule {
  /** The wait between the event and its first attempt. */
  firstDelayMs: number;
  /** The waits between consecutive attempts; empty: no retry. */
  retryDelaysMs: number[];
  /** How long one attempt may take before it counts as failed. */
  timeoutMs: number;
}

/** The delays between attempts (ms): the schedule the reference's profile declares as webhooks.retryDelaysMs. */
export function retryDelaysMs(options: { webhookRetryBaseMs: number; webhookMaxAttempts: number }, slower = false): number[] {
  const base = options.webhookRetryBaseMs * (slower ? SLOWER_RETRY_FACTOR : 1);
  return Array.from({ length: Math.max(0, options.webhookMaxAttempts - 1) }, (_, i) => base * 2 ** i);
}

/** The schedule of one server's deliveries under its options, faults, variants and conditions. */
export function deliverySchedule({ options, faults, variants, conditions }: Pick<ReferenceContext, 'options' | 'faults' | 'variants' | 'conditions'>): DeliverySchedule {
  const slower = variants.has('webhook-retry-slower');
  const slow = conditions.has('slow-webhooks');
  const retries = slow ? slowRetryDelaysMs(options).map((delay) => delay * (slower ? SLOWER_RETRY_FACTOR : 1)) : retryDelaysMs(options, slower);
  return {
    firstDelayMs: slow ? SLOW_FIRST_DELIVERY_MS : 0,
    retryDelaysMs: faults.has('webhook-no-retry') ? [] : retries,
    timeoutMs: slow ? SLOW_DELIVERY_TIMEOUT_MS : options.webhookTimeoutMs,
  };
}
