// A 202 to the accept of an expired offer, judged by where the offer ends
// (issue 29, audit 5). 4.4 says a 202 means "the request is received and
// still being processed": neither a refusal nor yet an acceptance, and after
// it the caller reads the offer status (rule 4). So the end decides: an
// execution (a trade id in its status) contradicts the validity the profile
// declares (rule 2: "It must be accepted within its validity period."); an
// end without a trade is a refusal made while processing, which rule 2
// allows (which code answers an expired offer is trading.expired-offer-410's
// concern). Where the profile gives no way to read that end, the check could
// not observe what rule 2 is about: ERROR naming the keys. Not a WARN: a 202
// alone contradicts no sentence, and a WARN would let a run whose expired
// offers execute behind their 202 stand CONFORMANT.
import type { CheckContext } from '../../runner/index.ts';
import { describeRecipe, FOLLOW_KEYS, shortId, type OfferEnd } from './support.ts';
import { validityKey, type ExpiredAccept } from './expiry.ts';

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

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
  if (end.kind === 'executed') {
    return check.failDeclared(
      validityKey(recipe),
      `${answered} and then executed: ${after} with trade ${shortId(end.tradeId)}, although the profile declares such offers expire after ${recipe.expiresAfterSeconds} s`,
      {
        expected: 'a refusal, or an end without a trade',
        actual: { accept: res.status, status: last.status ?? null, tradeId: end.tradeId },
        recipe: recipe.name,
        accept: res.exchangeId,
        exchange: last.exchangeId,
      },
    );
  }
  if (end.kind === 'unseen') return check.notObserved(`whether the expired offer executed: ${answered}, then ${end.why}`, { recipe: recipe.name, exchange: last.exchangeId });
  check.note(`${answered} and ended "${end.status}" without a trade: refused while processing, not accepted`);
}
