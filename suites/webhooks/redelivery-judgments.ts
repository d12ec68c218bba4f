// The named judgments of the checks that watch for an event again
// (src/check/judgments.ts): after an acknowledgement (acknowledgement.check.ts,
// 6.1) and after an answer that confirmed nothing (retries.check.ts, 6.2).
// The checks observe adaptively — they wait for a redelivery, answer it,
// wait again — and record what arrived, when, under which key and how it was
// answered; what that means is judged here, from that record alone.
import { defineJudgment } from '../../src/check/judgments.ts';

/** One attempt of the event, as the details show it: its delivery, when it came after the first, its key, the answer it got. */
export interface Attempt {
  delivery: number;
  at: string;
  key: string | null;
  answered: number | null;
  written?: boolean | null;
}

/** What an acknowledgement check observed: the code, the first delivery's answer, and the event again, when it came. */
export interface AcknowledgementObservation {
  code: number;
  key: string;
  first: { seq: number; written: boolean; hungUpAfterMs?: number; answeredAfterMs?: number };
  /** The first observation window, and the one watched after the redelivery was answered. */
  windowMs: number;
  secondWindowMs: number;
  /** How long after the first delivery arrived its answer was written. */
  answeredAfterArrivalMs?: number;
  /** Deliveries with the first one's content under another key: other events. */
  sameContentOtherKey: number[];
  /** The redelivery under the key, whether its answer was written, and the delivery after that, when they came. */
  again?: { seq: number; at: string; written: boolean };
  third?: { seq: number; at: string };
  attempts: Attempt[];
}

/**
 * 6.1: "answer with 200, 201, 202 or 204 to confirm receipt". Only an answer
 * written in full confirmed anything; one redelivery after a confirmation is
 * what an at-least-once sender may do (a warning); the event again after a
 * second confirmation does not take the code as confirming receipt (FAIL).
 */
export const acknowledgementEndsDelivery = defineJudgment<AcknowledgementObservation>('webhooks.ack-ends-delivery', (o, says) => {
  const { code, key, first, again, third } = o;
  if (!first.written) {
    return says.review(`the sender hung up ${first.hungUpAfterMs ?? '?'} ms after delivery #${first.seq} arrived, before the receiver's ${code} was written: nothing was confirmed, so whether the event comes again is retry behaviour, which 6.2 does not show`);
  }
  if (!again) {
    const others = o.sameContentOtherKey;
    if (others.length) says.note(`deliver${others.length === 1 ? 'y' : 'ies'} #${others.join(', #')} carried the content of #${first.seq} under another key: another event, not a redelivery`);
    return says.note(`no delivery with key ${key} within ${o.windowMs} ms after the ${code} was written (${o.answeredAfterArrivalMs ?? 0} ms after delivery #${first.seq} arrived)`);
  }
  const details = { acknowledgement: code, key, attempts: o.attempts };
  if (third) {
    return says.fail(
      `the event (key ${key}) was delivered again after each of two ${code} answers written in full: #${first.seq} answered ${code}, redelivered as #${again.seq} (${again.at}), answered ${code}, redelivered as #${third.seq} (${third.at}): the ${code} is not taken as confirming receipt`,
      details,
      { on: 'SPEC-6-1-ACK' },
    );
  }
  const ended = again.written
    ? `the ${code} to that redelivery ended it (no delivery with the key within ${o.secondWindowMs} ms)`
    : `the sender hung up on that redelivery before the ${code} was written, so whether a confirmed redelivery ends the event was not seen`;
  says.warn(
    `the event (key ${key}) was delivered once more (#${again.seq}, ${again.at}) after the receiver's ${code} to delivery #${first.seq} was written in full (${first.answeredAfterMs ?? 0} ms after it arrived); ${ended}. Once is what an at-least-once sender may do, and X-BTS-Idempotency-Key lets the receiver de-duplicate it (5 rule 5); the event again after a second confirmation would contradict 6.1`,
    details,
    { on: 'SPEC-6-1-ACK' },
  );
});

/** What a retry check observed after an answer that confirmed nothing. */
export interface RedeliveryObservation {
  /** What the receiver did to the first attempt ("answering 500"). */
  provocation: string;
  observationWindowMs: number;
  /** The redelivery came only in the second window a declared schedule allows (or none came in either). */
  late: boolean;
  /** The retry schedule the profile declares (webhooks.retryDelaysMs). */
  retryDelaysMs?: number[];
  timeline: Attempt[];
  again?: { seq: number; at: string; sameKey: boolean };
}

/**
 * 6.2: retry behaviour is not shown. A redelivery is recorded for review; none
 * within the window is a warning (the event may be lost), or, where the
 * profile declares a schedule, a contradiction of that declaration.
 */
export const redeliveryRecorded = defineJudgment<RedeliveryObservation>('webhooks.redelivery-after', (o, says) => {
  const declared = o.retryDelaysMs;
  const windowMs = o.observationWindowMs * (o.late ? 2 : 1);
  const { timeline, again, provocation } = o;
  if (!again) {
    if (declared) {
      return says.failDeclared('webhooks.retryDelaysMs', declared, `no redelivery within ${windowMs} ms after ${provocation}, though the profile declares retries after ${declared.join(', ')} ms`, {
        timeline,
        retryDelaysMs: declared,
      });
    }
    return says.warn(
      `no redelivery within ${windowMs} ms after ${provocation}: the event may be lost (retry behaviour is not shown by the spec; declare webhooks.retryDelaysMs, or widen webhooks.observationWindowMs if the first retry comes later)`,
      { timeline },
    );
  }
  const key = again.sameKey ? 'same key' : 'another key';
  const lateness = o.late ? `, later than the ${o.observationWindowMs} ms the declared first retry allows with its margin` : '';
  const schedule = declared ? `; the profile declares retries after ${declared.join(', ')} ms${lateness}` : '';
  says.review(`after ${provocation} the event was delivered again at ${again.at} (#${again.seq}, ${key})${schedule}`, { timeline, retryDelaysMs: declared ?? null });
});
