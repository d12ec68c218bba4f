// Judging a second accept of an offer already accepted (spec 3.1: the offer
// moves once) by what it did, read as trade ids: the trade of the first
// execution and the one the second answer (or, behind a 202, the offer status)
// stands for. A second trade id is a second execution, whatever the answer's
// status (the claim rests on the effect, not on an answer: no exchange); the
// same trade again is an idempotent replay; without both ids nothing can be
// compared. A refusal is the refusal rule's, and a server error the
// server-error rule's, which the check applies after this judgment with the
// effect the ids show. Named and pure (src/check/judgments.ts). The check:
// offer-rules.check.ts, trading.second-accept-rejected.
import { defineJudgment } from '../../src/check/judgments.ts';
import { isServerError, isSuccess } from '../../src/check/context.ts';
import { shortId } from './common.ts';
import { TRADE_ID_KEY } from './status.ts';

export interface SecondAccept {
  offerId: string;
  /** When the second accept was sent, HH:MM:SS (UTC). */
  clock: string;
  firstStatus: number;
  secondStatus: number;
  /** The trade the first accept stands for (its answer's, else the offer status's); null when none could be read. */
  firstTradeId: string | null;
  /** The trade the second accept stands for, read the same way; null when none could be read. */
  secondTradeId: string | null;
}

export const secondAcceptExecutesNothing = defineJudgment<SecondAccept>('trading.second-accept-executes-nothing', (input, says) => {
  const { firstTradeId: first, secondTradeId: second, secondStatus: status } = input;
  // Refused: judged by the refusal rule, not here.
  if (!isSuccess(status) && !isServerError(status)) return;
  const what = `second accept of offer ${shortId(input.offerId)} at ${input.clock}`;
  if (first && second && first !== second) {
    return says.fail(`${what} answered ${status} and executed the offer again: trade ${shortId(second)}, after trade ${shortId(first)} of the first accept`, {
      expected: `a refusal, or the same trade ${first} again`,
      actual: { status, tradeId: second },
      firstTradeId: first,
    });
  }
  // A server error is judged by the server-error rule, with what the trade ids show it did.
  if (isServerError(status)) return;
  if (first && second) return says.note(`idempotent replay: ${what} answered ${status} with the same trade ${shortId(first)}; nothing executed again`);
  says.review(
    `${what} answered ${status} (first accept ${input.firstStatus}); whether it executed the offer again cannot be observed without a trade id to compare (set ${TRADE_ID_KEY})`,
    { first: input.firstStatus, second: status, firstTradeId: first, secondTradeId: second },
  );
});
