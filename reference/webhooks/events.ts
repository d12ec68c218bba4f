// User-update events of the reference (spec 6.1, 3.2): what the trigger
// operation accepts and the params each action carries. The spec shows the
// verification params only; the others are the reference's choice:
//   verification     {action, success, user_pid, timestamp}
//   blacklisting     {action, user_pid, timestamp}            (deprecated)
//   inactivation     {action, user_pid, timestamp}
//   risk_evaluation  {action, status, user_pid, timestamp}    status: processing | finished | cancelled
// "risk_evaluation" is the reference's action string for risk evaluation (not shown by the spec).
// With webhook-body-extra-members the body and params carry more members than these.
// An "offer status" notification (6.2: payload not shown) is the reference's own shape too:
//   {"event": "offer_status", "params": {offer_id, status, user_pid, timestamp}}   no action
import { randomUUID } from 'node:crypto';
import type { FaultSet } from '../faults/index.ts';
import type { VariantSet } from '../variants/index.ts';

export const RISK_EVALUATION_ACTION = 'risk_evaluation';
export const RISK_STATUSES = ['processing', 'finished', 'cancelled'] as const;
export type RiskStatus = (typeof RISK_STATUSES)[number];

export type EventRequest =
  | { action: 'verification'; success: boolean }
  | { action: 'blacklisting' }
  | { action: 'inactivation' }
  | { action: typeof RISK_EVALUATION_ACTION; status: RiskStatus };

const ACTIONS = ['verification', 'blacklisting', 'inactivation', RISK_EVALUATION_ACTION];

/** The event a trigger body asks for, or why it is not one. */
export function parseEventRequest(body: unknown): EventRequest | string {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return 'body must be a JSON object';
  const { action, success, status } = body as Record<string, unknown>;
  if (typeof action !== 'string' || !ACTIONS.includes(action)) return `action must be one of ${ACTIONS.join(', ')}`;
  if (action === 'verification') {
    if (typeof success !== 'boolean') return 'a verification event needs success (boolean)';
    return { action, success };
  }
  if (action === RISK_EVALUATION_ACTION) {
    if (!RISK_STATUSES.includes(status as RiskStatus)) return `a risk evaluation event needs status ${RISK_STATUSES.join(', ')}`;
    return { action, status: status as RiskStatus };
  }
  return { action: action as 'blacklisting' | 'inactivation' };
}

export function eventParams(request: EventRequest, userId: string, at: Date, faults: FaultSet): Record<string, unknown> {
  const timestamp = faults.has('webhook-timestamp-milliseconds') ? at.getTime() : Math.floor(at.getTime() / 1000);
  const params: Record<string, unknown> = { action: request.action };
  // webhook-failed-verification-without-success: a failed verification leaves success out; a successful one keeps it.
  if (request.action === 'verification' && (request.success || !faults.has('webhook-failed-verification-without-success'))) params.success = request.success;
  if (request.action === RISK_EVALUATION_ACTION) {
    params.status = request.status === 'finished' && faults.has('webhook-risk-status-completed') ? 'completed' : request.status;
  }
  return { ...params, user_pid: userId, timestamp };
}

/** The JSON body of a delivery: {"params": {…}} (spec 6.1). */
/** `iso` writes occurred_at (webhook-body-extra-members): the reference clock's format, whole seconds under second-resolution. */
export function eventBody(params: Record<string, unknown>, eventId: string, faults: FaultSet, variants: VariantSet, iso: (instant: Date) => string = (d) => d.toISOString()): string {
  if (faults.has('webhook-body-without-params')) return JSON.stringify(params);
  if (faults.has('webhook-params-double-encoded')) return JSON.stringify({ params: JSON.stringify(params) });
  if (!variants.has('webhook-body-extra-members')) return JSON.stringify({ params });
  const occurredAt = iso(new Date(Number(params.timestamp) * 1000));
  return JSON.stringify({ event: 'user-update', event_id: eventId, occurred_at: occurredAt, params: { ...params, event_id: eventId, source: 'ptas-reference' } });
}

/**
 * webhook-redelivery-without-timestamp: the body a redelivery rebuilds, its
 * params without timestamp (a body without params, under another fault, is
 * left as it is).
 */
export function withoutTimestamp(body: string): string {
  const parsed = JSON.parse(body) as { params?: Record<string, unknown> };
  if (parsed.params && typeof parsed.params === 'object') delete parsed.params.timestamp;
  return JSON.stringify(parsed);
}

/** An "offer status" notification for the user: another kind 6.2 lists, shaped like no user-update event (it has no action). */
export function offerStatusBody(userId: string, at: Date): string {
  return JSON.stringify({ event: 'offer_status', params: { offer_id: randomUUID(), status: 'expired', user_pid: userId, timestamp: Math.floor(at.getTime() / 1000) } });
}
