// The named judgments of what deliveries carry about their event
// (src/check/judgments.ts): the idempotency key across attempts and events
// (5 rule 5, idempotency.check.ts), and the action, success and status each
// caused event arrived with (6.1, 3.2, actions.check.ts). The checks record
// the keys and members they read; what those mean is judged here.
import { defineJudgment } from '../../src/check/judgments.ts';
import { describeEvent, RISK_STATUSES, type UserUpdateEvent } from './events.ts';

/** A delivery's key, as the check read it (null: none). */
export interface KeyedDelivery {
  seq: number;
  at: string;
  key: string | null;
}

/** 5 rule 5: every attempt of one event carries the same X-BTS-Idempotency-Key. No redelivery: key stability was not observed (6.2 does not show retries). */
export const redeliveryKeepsKey = defineJudgment<{ first: KeyedDelivery; again?: KeyedDelivery; observationWindowMs: number }>('webhooks.same-key-on-redelivery', ({ first, again, observationWindowMs }, says) => {
  if (!again) return says.review(`no redelivery within ${observationWindowMs} ms after answering 500, so key stability could not be observed (retry behaviour is not shown by the spec)`);
  if (again.key !== first.key) {
    return says.fail(`redelivery #${again.seq} at ${again.at} carried X-BTS-Idempotency-Key ${again.key ?? '(none)'}, the first attempt ${first.key ?? '(none)'}`, {
      attempts: [first, again].map((d) => ({ delivery: d.seq, at: d.at, key: d.key })),
    });
  }
  says.note(`redelivery #${again.seq} at ${again.at} kept key ${first.key}`);
});

/** 5 rule 5: distinct events carry distinct keys. A missing key is the headers check's finding: without one there is nothing to compare. */
export const distinctEventsDistinctKeys = defineJudgment<{ first: Omit<KeyedDelivery, 'at'>; second: Omit<KeyedDelivery, 'at'> }>('webhooks.distinct-keys', ({ first, second }, says) => {
  const [a, b] = [first.key, second.key];
  if (!a || !b) {
    return says.notObserved(`delivery #${(a ? second : first).seq} carries no X-BTS-Idempotency-Key, so whether distinct events carry distinct keys cannot be judged: see webhooks.delivery-headers-present`);
  }
  if (a === b) says.fail(`two distinct events (verification success true, then false) both carried X-BTS-Idempotency-Key ${a}`, { first: { delivery: first.seq, key: a }, second: { delivery: second.seq, key: b } });
});

/** What one caused event's delivery showed: the members of its event (params, or the top level of a body that breaks the shape). */
export interface EventDelivered {
  event: UserUpdateEvent;
  seq: number;
  members: Record<string, unknown>;
}

/** What one caused event's delivery shows against what was asked: each mismatch with the sentence it departs from. */
function mismatches(event: UserUpdateEvent, members: Record<string, unknown>): Array<{ message: string; on?: string }> {
  const what = describeEvent(event);
  const found: Array<{ message: string; on?: string }> = [];
  if (members.action !== event.action) found.push({ message: `${what} arrived with action ${JSON.stringify(members.action)}` });
  if (event.success !== undefined && members.success !== event.success) found.push({ message: `${what} arrived with success ${JSON.stringify(members.success)}` });
  if (event.status !== undefined && members.status !== event.status) {
    const known = RISK_STATUSES.includes(members.status as string);
    found.push({ message: `${what} arrived with status ${JSON.stringify(members.status)}${known ? '' : ' (not one of processing, finished, cancelled)'}`, ...(known ? {} : { on: 'SPEC-3-2-STATUS' }) });
  }
  return found;
}

/**
 * 6.1 and 3.2: a verification with the wrong success, or a risk status
 * outside processing, finished and cancelled, is a warning; what arrived is
 * recorded for review once every caused event arrived without a mismatch
 * (the risk-evaluation action string and other actions' params are not shown).
 */
export const eventActions = defineJudgment<{ delivered: EventDelivered[]; allArrived: boolean; riskEvaluationCaused: boolean; observed: string[] }>('webhooks.event-actions', (input, says) => {
  let problems = 0;
  for (const { event, seq, members } of input.delivered) {
    for (const mismatch of mismatches(event, members)) {
      problems++;
      says.warn(mismatch.message, { delivery: seq, members }, mismatch.on ? { on: mismatch.on } : {});
    }
  }
  // An event that did not arrive is lateness, which the check says next.
  if (!input.allArrived || problems) return;
  const gap = input.riskEvaluationCaused ? '' : '; risk evaluation was not caused: set webhooks.riskEvaluationAction to the action string the implementation uses';
  const actions = [...new Set(input.delivered.map((d) => String(d.members.action)))].join(', ') || 'none';
  says.review(`${input.delivered.length} events delivered with actions ${actions}; the risk-evaluation action string and the params of actions other than verification are not shown by the spec${gap}`, { observed: input.observed });
});
