// The user-update events the webhook checks cause (placeholders of
// webhooks.trigger), how a cause is remembered, and small helpers about when
// deliveries came and were answered.
import type { ReceivedDelivery } from '../../src/webhooks/delivery.ts';
import type { ResponseStep } from '../../src/webhooks/routing.ts';

/** A user-update event the suite asks the implementation for (placeholders of webhooks.trigger). */
export interface UserUpdateEvent {
  action: string;
  success?: boolean;
  status?: string;
}

export const VERIFICATION_SUCCEEDED: UserUpdateEvent = { action: 'verification', success: true };
export const VERIFICATION_FAILED: UserUpdateEvent = { action: 'verification', success: false };

/** The statuses of a risk evaluation (spec 3.2). */
export const RISK_STATUSES = ['processing', 'finished', 'cancelled'];

/** Every user-update event the suite can ask for: each action, and each risk status when the profile names the risk action. */
export function eventsToCause(riskEvaluationAction: string | undefined): UserUpdateEvent[] {
  const risk = riskEvaluationAction ? RISK_STATUSES.map((status) => ({ action: riskEvaluationAction, status })) : [];
  return [
    { action: 'verification', success: true },
    { action: 'verification', success: false },
    { action: 'blacklisting' },
    { action: 'inactivation' },
    ...risk,
  ];
}

export function describeEvent(event: UserUpdateEvent): string {
  if (event.success !== undefined) return `${event.action} (success ${event.success})`;
  return event.status ? `${event.action} (status ${event.status})` : event.action;
}

/** Acknowledges with the spec's empty-bodied 204 (6.1). */
export const ACKNOWLEDGE: ResponseStep[] = [{ status: 204 }];

/** Each event's first attempt is refused, its second acknowledged: every event shows a redelivery, if the implementation retries. */
export const REFUSE_FIRST_ATTEMPT: ResponseStep[] = [{ status: 500 }, { status: 204 }];

/** An event the suite asked for, and when: its delivery cannot arrive before. */
export interface CausedEvent {
  event: UserUpdateEvent;
  /** Just before the trigger was called: when the hub noted the cause, on this process's performance.now() clock. */
  atMs: number;
  /** Date.now() when the trigger was called. */
  atEpochMs: number;
}

/** When a delivery's answer was written, or the sender hung up on it, on this process's clock (its arrival when neither is known). */
export function answeredAtMs(delivery: ReceivedDelivery): number {
  const answer = delivery.answer;
  return delivery.receivedAtMs + (answer?.answeredAfterMs ?? answer?.hungUpAfterMs ?? 0);
}

/** Milliseconds between two deliveries, as "+123 ms". */
export function offset(delivery: ReceivedDelivery, from: ReceivedDelivery): string {
  return `+${Math.round(delivery.receivedAtMs - from.receivedAtMs)} ms`;
}
