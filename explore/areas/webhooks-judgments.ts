// The named judgments of the explored webhooks area that the hand-written
// suite does not have in the form a generated case needs (the rest are the
// suite's own: suites/webhooks/*-judgments.ts, verification-params.ts).
//
// Why not the suite's here:
//   - acknowledgement: suites/webhooks/redelivery-judgments.ts warns on one
//     redelivery after a written acknowledgement. Exploration turns a WARN into
//     a finding, and one redelivery is what 6.2 leaves open (the reference's
//     webhook-at-least-once variant does it); so here it is recorded (REVIEW),
//     and only the FAIL of the suite's judgment stays: the event again after
//     two acknowledgements in a row, each written in full (6.1).
//   - retry without a declared schedule: the suite warns when no redelivery
//     comes (the event may be lost). 6.2: "Retry and redelivery behaviour: not
//     shown", so exploration records it; with webhooks.retryDelaysMs declared
//     the suite's redeliveryRecorded judges (a profile-declared FAIL).
//   - distinct keys: the suite's judgment names the two verification events
//     its check causes; a generated case causes others.
import { defineJudgment, type NamedJudgment } from '../../src/check/judgments.ts';

/** One acknowledgement the receiver answered an attempt of the event with, and what came after it under the same key. */
export interface AcknowledgementSeen {
  seq: number;
  code: number;
  /** Written in full before the sender hung up: only then was receipt confirmed. */
  written: boolean;
  hungUpAfterMs?: number;
  /** How long the next attempt under the key was watched for. */
  windowMs: number;
  /** The attempt under the same key that came after it, when one did. */
  again?: { seq: number; at: string };
}

export interface AcknowledgementTimeline {
  event: string;
  key: string;
  /** In order: the acknowledgements of the event's attempts. */
  acknowledgements: AcknowledgementSeen[];
  /** Deliveries with the event's content under another key: other events, not redeliveries. */
  sameContentOtherKey: number[];
}

/**
 * 6.1: "answer with 200, 201, 202 or 204 to confirm receipt". The event
 * (its key) again after two acknowledgements in a row, each written in full,
 * is a sender that does not take them as confirming receipt: FAIL. Once is
 * what an at-least-once sender may do (6.2: not shown): recorded.
 */
export const acknowledgementEndsEvent = defineJudgment<AcknowledgementTimeline>('explore.webhooks.ack-ends-event', (o, says) => {
  const acks = o.acknowledgements;
  const details = { event: o.event, key: o.key, acknowledgements: acks };
  for (let i = 0; i + 1 < acks.length; i++) {
    const [a, b] = [acks[i]!, acks[i + 1]!];
    if (a.written && a.again && a.again.seq === b.seq && b.written && b.again) {
      return says.fail(
        `the ${o.event} event (key ${o.key}) was delivered again after each of two acknowledgements written in full: #${a.seq} answered ${a.code}, again as #${b.seq} (${a.again.at}), answered ${b.code}, again as #${b.again.seq} (${b.again.at}): the answers are not taken as confirming receipt`,
        details,
        { on: 'SPEC-6-1-ACK' },
      );
    }
  }
  if (o.sameContentOtherKey.length) says.note(`deliveries #${o.sameContentOtherKey.join(', #')} carried the event's content under another key: other events, not redeliveries`);
  const once = acks.find((a) => a.written && a.again);
  if (once) {
    return says.review(
      `the ${o.event} event (key ${o.key}) was delivered once more (#${once.again!.seq}, ${once.again!.at}) after the receiver's ${once.code} to #${once.seq} was written in full; once is what an at-least-once sender may do (6.2 does not show redelivery), and the key lets the receiver de-duplicate it: recorded`,
      details,
    );
  }
  const unconfirmed = acks.find((a) => !a.written);
  if (unconfirmed) {
    return says.review(`the sender hung up ${unconfirmed.hungUpAfterMs ?? '?'} ms after #${unconfirmed.seq} arrived, before the receiver's ${unconfirmed.code} was written: nothing was confirmed, so what came next is retry behaviour (6.2: not shown)`, details);
  }
  says.note(`no delivery with key ${o.key} within ${acks.map((a) => `${a.windowMs} ms`).join(', then ')} after the ${o.event} event was acknowledged (${acks.map((a) => `#${a.seq} ${a.code}`).join(', ')})`);
});

/** What came after the first attempt of an event the receiver did not acknowledge, where the profile declares no retry schedule. */
export interface UndeclaredRetry {
  event: string;
  provocation: string;
  observationWindowMs: number;
  again?: { seq: number; at: string; sameKey: boolean };
}

/** 6.2: retry behaviour is not shown; without webhooks.retryDelaysMs what came is recorded, never judged. */
export const retryWithoutSchedule = defineJudgment<UndeclaredRetry>('explore.webhooks.retry-without-schedule', (o, says) => {
  if (o.again) {
    return says.review(`after ${o.provocation} the ${o.event} event was delivered again at ${o.again.at} (#${o.again.seq}, ${o.again.sameKey ? 'same key' : 'another key'}); the profile declares no retry schedule: recorded`);
  }
  says.review(`no redelivery of the ${o.event} event within ${o.observationWindowMs} ms after ${o.provocation}; retry behaviour is not shown by the spec (6.2) and the profile declares no webhooks.retryDelaysMs: recorded, not judged`);
});

/** The first delivery of each distinct event of a case, with its key. */
export interface KeyedEvent {
  event: string;
  seq: number;
  key: string;
}

/** 5 rule 5: a receiver de-duplicates by X-BTS-Idempotency-Key, so distinct events carry distinct keys. */
export const distinctEventKeys = defineJudgment<{ events: KeyedEvent[] }>('explore.webhooks.distinct-event-keys', ({ events }, says) => {
  for (const [i, a] of events.entries()) {
    const b = events.slice(i + 1).find((other) => other.key === a.key);
    if (b) {
      return says.fail(`two distinct events, ${a.event} (#${a.seq}) and ${b.event} (#${b.seq}), both carried X-BTS-Idempotency-Key ${a.key}: a receiver de-duplicating by it would drop one`, {
        first: { delivery: a.seq, event: a.event, key: a.key },
        second: { delivery: b.seq, event: b.event, key: b.key },
      });
    }
  }
  says.note(`${events.length} distinct events carried ${events.length} distinct keys`);
});

/**
 * The suite's judgment `inner` with its warnings recorded (REVIEW) and every
 * other claim as it said it. The delivery-format judgments warn where the
 * spec leaves the matter open and the deployed API is known to differ (a
 * base64url signature, which the reference's webhook-signature-base64url
 * variant sends; a Date or signature time beyond the suite's default skew
 * where none is declared; components the suite expected where the profile
 * names none): the hand-written checks say so; exploration, which finds only
 * contradictions (README "Exploring with generated cases"), records them.
 */
export function withWarningsRecorded<I>(inner: NamedJudgment<I>, name: string): NamedJudgment<I> {
  return defineJudgment<I>(name, (input, says) => {
    for (const claim of inner.judge(input).claims) {
      const observed = claim.observed ? { observed: claim.observed } : {};
      if (claim.level === 'FAIL' && claim.rests?.kind === 'declared') says.failDeclared(claim.rests.profileKey, claim.rests.declaredValue, claim.message, claim.details, observed);
      else if (claim.level === 'FAIL') says.fail(claim.message, claim.details, { ...(claim.rests?.kind === 'sentence' && claim.rests.on ? { on: claim.rests.on } : {}), ...observed });
      else if (claim.level === 'WARN') says.review(`${claim.message} (the hand-written check warns on this; the spec leaves it open: recorded)`, claim.details);
      else if (claim.level === 'REVIEW') says.review(claim.message, claim.details);
      else if (claim.level === 'ERROR') says.notObserved(claim.message.replace(/^not observed: /, ''), claim.details);
      else says.note(claim.message, claim.details);
    }
  });
}
