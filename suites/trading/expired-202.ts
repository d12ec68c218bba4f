// An accept of an expired offer judged by what it did (spec 4.4 rule 2: "It
// must be accepted within its validity period."; 8: the period is not shown,
// so it is what the profile declares). Accepted (a 2xx other than 202):
// the declaration is contradicted. A 202 is judged by where the offer ends
// (issue 29, audit 5). 4.4 says a 202 means "the request is received and
// still being processed": neither a refusal nor yet an acceptance, and after
// it the caller reads the offer status (rule 4). So the end decides: an
// execution (a trade id in its status) contradicts the validity the profile
// declares; an end without a trade is a refusal made while processing, which
// rule 2 allows (which code answers an expired offer is
// trading.expired-offer-410's concern). Where the profile gives no way to
// read that end, or polling never showed it, the check could not observe
// what rule 2 is about: ERROR naming why, before any judgment. Not a WARN: a
// 202 alone contradicts no sentence, and a WARN would let a run whose expired
// offers execute behind their 202 stand CONFORMANT.
//
// The judgments are named and pure (src/check/judgments.ts): the answer, the
// end polling showed and the declared validity are their input, so a stored
// run is judged again by the installed suite.
import type { CheckContext } from '../../runner/index.ts';
import { defineJudgment } from '../../src/check/judgments.ts';
import { isSuccess } from '../../src/check/context.ts';
import { describeRecipe, FOLLOW_KEYS, shortId, type OfferEnd } from './support.ts';
import { validityKey, type ExpiredAccept } from './expiry.ts';

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The validity an expired offer's recipe declares, as a judgment's input carries it. */
export interface DeclaredValidity {
  /** The accept in words (expiry.ts): offer, recipe, when, the validity and the clock. */
  what: string;
  recipe: string;
  /** The key that declares the validity (validityKey) and the value the profile gives it (absent: none). */
  validityKey: string;
  declaredValue?: unknown;
  expiresAfterSeconds: number;
}

/** What a judgment's input says of the recipe's declared validity. */
export function declaredValidity(check: CheckContext, accepted: ExpiredAccept): DeclaredValidity {
  const { recipe, what } = accepted;
  const key = validityKey(recipe);
  const value = check.declaredValue(key);
  return { what, recipe: recipe.name, validityKey: key, ...(value === undefined ? {} : { declaredValue: value }), expiresAfterSeconds: recipe.expiresAfterSeconds };
}

export interface ExpiredOfferAnswer extends DeclaredValidity {
  status: number;
  exchange: number;
}

/** An expired offer accepted outright (a 2xx other than 202, which is judged by where the offer ends). A refusal is the refusal rule's. */
export const expiredOfferNotAccepted = defineJudgment<ExpiredOfferAnswer>('trading.expired-offer-not-accepted', (input, says) => {
  if (!isSuccess(input.status) || input.status === 202) return;
  // The period is the profile's statement (8: "not shown"); rule 2 says what it means.
  says.failDeclared(
    input.validityKey,
    input.declaredValue,
    `${input.what} was accepted (${input.status}), although the profile declares such offers expire after ${input.expiresAfterSeconds} s`,
    { expected: 'a 4xx refusal', actual: input.status, recipe: input.recipe, exchange: input.exchange },
    { observed: { kind: 'answer', status: input.status } },
  );
});

export interface Expired202End extends DeclaredValidity {
  /** The accept answered 202. */
  accept: { status: number; exchange: number };
  /** How long after the 202 polling saw the end. */
  elapsedMs: number;
  /** The last status read: its summary, the offer status, and the answer it came in. */
  last: { summary: string; status?: string; httpStatus?: number; exchange?: number };
  /** The trade the status shows: the offer executed; null: it ended without one. */
  tradeId: string | null;
}

/** Where an expired offer answered 202 ended: an execution contradicts the declared validity; an end without a trade is a refusal made while processing. */
export const expiredOffer202End = defineJudgment<Expired202End>('trading.expired-offer-202-end', (input, says) => {
  const answered = `${input.what} was answered 202 (received, still processing)`;
  const { last } = input;
  if (input.tradeId !== null) {
    const after = `${seconds(input.elapsedMs)} later its status shows ${last.summary}`;
    return says.failDeclared(
      input.validityKey,
      input.declaredValue,
      `${answered} and then executed: ${after} with trade ${shortId(input.tradeId)}, although the profile declares such offers expire after ${input.expiresAfterSeconds} s`,
      {
        expected: 'a refusal, or an end without a trade',
        actual: { accept: input.accept.status, status: last.status ?? null, tradeId: input.tradeId },
        recipe: input.recipe,
        accept: input.accept.exchange,
        exchange: last.exchange,
      },
      // It rests on the status answer that showed the trade, the exchange it names.
      last.httpStatus === undefined ? {} : { observed: { kind: 'answer', status: last.httpStatus } },
    );
  }
  says.note(`${answered} and ended "${last.status}" without a trade: refused while processing, not accepted`);
});

/** Judges an expired offer whose accept answered 202 by `end`, where followToEnd (status.ts) found it ended. */
export function judgeExpired202(check: CheckContext, accepted: ExpiredAccept, end: OfferEnd): void {
  const { recipe, res, what } = accepted;
  const answered = `${what} was answered 202 (received, still processing)`;
  if (end.kind === 'unfollowed') {
    return check.notObserved(`whether the expired offer executed: ${answered}, and the profile gives no way to read where it ends (set ${FOLLOW_KEYS})`, {
      recipe: recipe.name,
      exchange: res.exchangeId,
    });
  }
  const last = end.polling.last!;
  const after = `${seconds(end.polling.elapsedMs)} later its status shows ${last.summary}`;
  check.event(`${describeRecipe(recipe)}: where the 202 ended`, `${after}${end.kind === 'executed' ? `, trade ${shortId(end.tradeId)}` : ''}`);
  if (end.kind === 'unseen') return check.notObserved(`whether the expired offer executed: ${answered}, then ${end.why}`, { recipe: recipe.name, exchange: last.exchangeId });
  check.judge(expiredOffer202End, {
    ...declaredValidity(check, accepted),
    accept: { status: res.status, exchange: res.exchangeId },
    elapsedMs: end.polling.elapsedMs,
    last: {
      summary: last.summary,
      ...(last.status !== undefined ? { status: last.status } : {}),
      ...(last.httpStatus !== undefined ? { httpStatus: last.httpStatus } : {}),
      ...(last.exchangeId !== undefined ? { exchange: last.exchangeId } : {}),
    },
    tradeId: end.kind === 'executed' ? end.tradeId : null,
  });
}
