// slow-webhooks: deliveries the way a queue-backed sender makes them — the
// event waits in a queue before its first delivery, retries are seconds
// apart, and the sender gives the receiver seconds to answer. The numbers are
// the condition's; reference/webhooks/schedule.ts applies them, and the
// profile adjustment (profile-adjustments.ts) declares them. Each is longer
// than what the reference's own profile declares (a delivery within 5 s, a
// 1 s timeout, retries 100-400 ms apart), so the checks see them only by
// honouring the declaration; they are no longer than that needs, since the
// self-test waits them out on two targets.

/** The first delivery of an event comes this long after the event. */
export const SLOW_FIRST_DELIVERY_MS = 6_000;
/** The waits between consecutive attempts of an event that is not acknowledged. */
export const SLOW_RETRY_DELAYS_MS: readonly number[] = [2_000, 4_000];
/** How long the sender waits for the receiver's answer to one attempt. */
export const SLOW_DELIVERY_TIMEOUT_MS = 2_000;

/** The slow retry schedule, cut to the attempts the reference makes (webhookMaxAttempts - 1 retries at most). */
export function slowRetryDelaysMs(options: { webhookMaxAttempts: number }): number[] {
  return SLOW_RETRY_DELAYS_MS.slice(0, Math.max(0, options.webhookMaxAttempts - 1));
}
