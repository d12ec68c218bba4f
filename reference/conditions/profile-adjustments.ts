// What a certification team writes for the reference under the conditions
// that make it slower than its own profile says: the waits the checks may
// spend, declared so a late delivery or a long poll is judged against them.
import type { ResolvedProfile } from '../../src/config/profile.ts';
import { REFERENCE_DEFAULTS, type ReferenceOptions } from '../options.ts';
import { longProcessingDefaults, LONG_PROCESSING_MS } from './long-processing.ts';
import { SLOW_DELIVERY_TIMEOUT_MS, SLOW_FIRST_DELIVERY_MS, slowRetryDelaysMs } from './slow-webhooks.ts';

/** Room the checks leave above the 6 s first delivery before they give up on it. */
export const SLOW_DELIVERY_WAIT_MS = 12_000;
/** How much longer than the sender's timeout the receiver holds its answer to make the sender time out. */
const SLOW_RESPONSE_MARGIN_MS = 500;
/** The poll deadline that covers LONG_PROCESSING_MS with room for a loaded machine. */
export const LONG_POLL_DEADLINE_MS = 90_000;

/**
 * slow-webhooks: a delivery is awaited 12 s (the first comes after 6 s), the
 * receiver holds a slow answer 3.5 s (past the 3 s timeout), and the retry
 * schedule declared is the slow one — only where the profile declares one
 * (a variant may leave it undeclared on purpose).
 */
export function withSlowWebhooksDeclared(profile: ResolvedProfile, options: ReferenceOptions = REFERENCE_DEFAULTS): ResolvedProfile {
  const webhooks = profile.webhooks;
  if (!webhooks) return profile;
  const declaresRetries = webhooks.retryDelaysMs !== undefined;
  const retryDelaysMs = slowRetryDelaysMs(options);
  return {
    ...profile,
    webhooks: {
      ...webhooks,
      deliveryTimeoutMs: Math.max(webhooks.deliveryTimeoutMs ?? 0, SLOW_DELIVERY_WAIT_MS, SLOW_FIRST_DELIVERY_MS),
      slowResponseMs: SLOW_DELIVERY_TIMEOUT_MS + SLOW_RESPONSE_MARGIN_MS,
      ...(declaresRetries && retryDelaysMs.length ? { retryDelaysMs } : {}),
    },
  };
}

/** long-processing: polls after a 202 may last 90 s (processing takes 65 s), and offers that must stay valid ask for 120 s. */
export function withLongProcessingDeclared(profile: ResolvedProfile, options: ReferenceOptions = REFERENCE_DEFAULTS): ResolvedProfile {
  const trading = profile.trading;
  if (!trading) return profile;
  return {
    ...profile,
    trading: {
      ...trading,
      pollDeadlineMs: Math.max(trading.pollDeadlineMs ?? 0, LONG_POLL_DEADLINE_MS, LONG_PROCESSING_MS),
      validitySeconds: longProcessingDefaults(options).offerValiditySeconds,
    },
  };
}
