// Judging the polling of an offer answered 202 (spec 3.1, 4.4 rules 3-4) by
// what it observed: the spec shows neither the status operation nor how long
// processing may take, so both contradictions rest on the profile. A status
// operation answering a code its declared expectStatus rules out contradicts
// that declaration; an offer not terminal at the declared poll deadline is
// late (a profile-declared FAIL on trading.pollDeadlineMs, resting on the
// wait, as CheckContext.late makes it) — but only an answer at or after the
// deadline shows that (src/polling.ts): otherwise it was not observed.
// Named and pure (src/check/judgments.ts): the polling's outcome and the
// declared values are its input. The check: polling.check.ts.
import { defineJudgment } from '../../src/check/judgments.ts';
import { shortId } from './common.ts';
import type { CheckContext } from '../../src/check/context.ts';
import type { OfferPolling } from './status.ts';

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The last status read while polling (status.ts StatusObservation), as far as the judgment reads it. */
export interface LastPoll {
  summary: string;
  /** The offer status, when it was read. */
  status?: string;
  /** The HTTP status of the answer, when one came. */
  httpStatus?: number;
  exchange?: number;
}

export interface OfferPolled {
  offerId: string;
  /** trading.terminalStatuses, as the reason lists them. */
  terminalStatuses: string[];
  /** trading.pollDeadlineMs: the deadline polling kept, and the declared value the lateness rests on (absent when the profile gives none). */
  deadlineMs: number;
  declaredDeadline?: unknown;
  /** trading.offerStatus.expectStatus, as the profile declares it (absent: none declared). */
  declaredExpectStatus?: unknown;
  reached: boolean;
  /** Polling ended at an answer the declared expectStatus rules out. */
  stopped: boolean;
  /** Not reached: whether the last answer came at or after the deadline. */
  answeredAtDeadline: boolean;
  polls: number;
  elapsedMs: number;
  /** Absent when no poll was answered. */
  last?: LastPoll;
}

export const offerReachesTerminalStatus = defineJudgment<OfferPolled>('trading.offer-reaches-terminal-status', (input, says) => {
  const offer = shortId(input.offerId);
  const last = input.last;
  if (input.stopped) {
    // The status operation answered a code its declaration rules out while the offer was processing: the profile's own statement is contradicted.
    const declared = (input.declaredExpectStatus as readonly number[] | undefined) ?? [];
    return says.failDeclared(
      'trading.offerStatus.expectStatus',
      input.declaredExpectStatus,
      `the offer-status operation answered ${last?.httpStatus} for offer ${offer} ${seconds(input.elapsedMs)} after its 202 (poll ${input.polls}), before any terminal status; the profile declares it answers ${declared.join('/')}`,
      { expected: declared, actual: last?.httpStatus, exchange: last?.exchange, polls: input.polls },
      // It rests on that answer, as the exchange it names.
      last?.httpStatus === undefined ? {} : { observed: { kind: 'answer', status: last.httpStatus } },
    );
  }
  if (!input.reached) {
    const lastSeen = last?.summary ?? 'no status read';
    // Only an answer at or after the deadline shows the offer not terminal then (src/polling.ts).
    if (!input.answeredAtDeadline) {
      return says.notObserved(
        `no poll of offer ${offer} was answered at or after the declared ${seconds(input.deadlineMs)} deadline (trading.pollDeadlineMs), so whether it had reached a terminal status by then is unknown: ${input.polls} polls, last answered ${lastSeen}`,
      );
    }
    return says.failDeclared(
      'trading.pollDeadlineMs',
      input.declaredDeadline,
      `offer ${offer} did not reach a terminal status (trading.terminalStatuses: ${input.terminalStatuses.join(', ')}) within the declared ${seconds(input.deadlineMs)} of its 202: ${input.polls} polls, last ${lastSeen}`,
      { polls: input.polls, deadlineMs: input.deadlineMs, lastStatus: last?.status ?? null },
      { observed: { kind: 'late', waitedMs: Math.round(input.elapsedMs), declaredBy: 'trading.pollDeadlineMs' } },
    );
  }
  says.note(`offer ${offer} reached ${last?.status} after ${input.polls} polls in ${seconds(input.elapsedMs)}`);
});

/**
 * Judges a poll of an offer to its end (trading.202-status-reaches-terminal,
 * explore.trading.202-reaches-terminal-status): the outcome as the judgment
 * reads it, with what the profile declares of the poll.
 */
export function judgeOfferPolled(check: CheckContext, offerId: string, terminalStatuses: string[], outcome: OfferPolling): void {
  const declaredDeadline = check.declaredValue('trading.pollDeadlineMs');
  const declaredExpectStatus = check.declaredValue('trading.offerStatus.expectStatus');
  check.judge(offerReachesTerminalStatus, {
    offerId,
    terminalStatuses,
    deadlineMs: outcome.deadlineMs,
    ...(declaredDeadline === undefined ? {} : { declaredDeadline }),
    ...(declaredExpectStatus === undefined ? {} : { declaredExpectStatus }),
    reached: outcome.reached,
    stopped: Boolean(outcome.stopped),
    answeredAtDeadline: Boolean(outcome.answeredAtDeadline),
    polls: outcome.polls,
    elapsedMs: outcome.elapsedMs,
    ...(outcome.last ? { last: lastPoll(outcome.last) } : {}),
  });
}

/** The last poll as the judgment reads it: keys present only where observed, so the input judges the same after a JSON round trip. */
function lastPoll(last: NonNullable<OfferPolling['last']>): LastPoll {
  return {
    summary: last.summary,
    ...(last.status !== undefined ? { status: last.status } : {}),
    ...(last.httpStatus !== undefined ? { httpStatus: last.httpStatus } : {}),
    ...(last.exchangeId !== undefined ? { exchange: last.exchangeId } : {}),
  };
}
