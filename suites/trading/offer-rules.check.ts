// Which offers can be accepted (spec 4.4 rule 1, 3.1): only the newest
// offer created for the user — newest among that user's offers, whatever
// other users are offered in between — and each executed only once. Where
// section 7 ties no code to a refusal, any 4xx of accept's list passes
// (expectRefused); a server error or a 202 is judged by what it did to the
// offer (refusal-effect.ts, src/check/server-error.ts). A repeated accept
// may be refused or answered as an idempotent replay of the same trade: only
// a second execution (a second trade id) contradicts the spec. The validity
// period: expiry.check.ts; simultaneous accepts: race.check.ts.
import { defineCheck, isServerError, isSuccess } from '../../runner/index.ts';
import type { TradingProfile } from '../../src/config/sections/trading.ts';
import type { HttpClient, HttpResponse } from '../../runner/index.ts';
import {
  ACCEPTED,
  accept,
  checkUser,
  clockOf,
  createOffer,
  freshOffer,
  offerClock,
  ownerAndOtherUser,
  settleIfPossible,
  settleWaitMs,
  shortId,
  showsTradeId,
  tradeIdIn,
  tradeIdInStatus,
  TRADE_ID_KEY,
  tradingSection,
  type CreatedOffer,
} from './support.ts';
import { describeClock, laterStepInMs } from './clock.ts';
import { acceptEffect } from './refusal-effect.ts';
import { secondAcceptExecutesNothing } from './second-accept.ts';
import { effectUnknown, nothingExecuted } from '../../src/check/server-error.ts';
import type { Bearer } from '../../src/http/outgoing.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** "the newest valid trade offer" is accepted (1), answered 200 or 202 (3.1). */
const ACCEPTS_NEWEST = 'SPEC-1-ACCEPT-OFFER';

defineCheck(
  {
    id: 'trading.older-offer-rejected',
    title: 'Only the newest offer of a user can be accepted',
    requirements: ['OFFER-NEWEST-ONLY'],
    // An older offer's accept answered 202 or 5xx is followed to its end, within the declared poll deadline.
    waitsMs: (profile) => settleWaitMs(profile.trading),
  },
  async ({ check, http, profile, tokens }) => {
    const section = tradingSection(profile, check);
    const bearer = tokens;
    const userId = await checkUser({ check, http, profile }, bearer);
    const older = await createOffer(http, section.recipes.standard, bearer, userId, 'create the older offer');
    // Two offers within one step of a whole-second clock can carry the same creation time: the newer one is made
    // only once the implementation's clock shows a later step than the older one's.
    const clock = await offerClock(http, section, bearer, older);
    const waitMs = laterStepInMs(older.response, clock.granularityMs);
    if (waitMs > 0) check.event('waiting for a later clock step', `${Math.round(waitMs)} ms; the implementation's clock: ${describeClock(clock)}`);
    await sleep(waitMs);
    const newer = await createOffer(http, section.recipes.standard, bearer, userId, 'create a newer offer for the same user');
    const res = await accept(http, older.offerId, { bearer, userId, label: 'accept the older offer' });
    check.expectRefused(res, {
      operation: 'acceptOffer',
      what: `accept at ${clockOf(res)} of the older offer ${shortId(older.offerId)}, although ${shortId(newer.offerId)} is newer`,
      effect: await acceptEffect({ check, http, section, bearer }, older, res, 'OFFER-NEWEST-ONLY'),
    });
    const newest = await accept(http, newer.offerId, { bearer, userId, label: 'accept the newest offer' });
    check.expectStatus(newest, ACCEPTED, `accept of the newest offer ${shortId(newer.offerId)} after the older one was refused`, { on: ACCEPTS_NEWEST });
  },
);

defineCheck(
  {
    id: 'trading.newest-offer-is-per-user',
    title: "Another user's newer offer does not supersede a user's newest offer",
    requirements: ['OFFER-NEWEST-ONLY'],
  },
  async ({ check, http, profile, tokens }) => {
    const section = tradingSection(profile, check);
    const bearer = tokens;
    const { ownerId, otherId } = await ownerAndOtherUser({ check, http, profile }, bearer);
    const own = await createOffer(http, section.recipes.standard, bearer, ownerId, "create the user's offer");
    const others = await createOffer(http, section.recipes.standard, bearer, otherId, 'create an offer for another user afterwards');
    const res = await accept(http, own.offerId, { bearer, userId: ownerId, label: "accept the user's newest offer" });
    // Rule 1 reads "newest offer created for the user": the other user's offer is newer, but not the user's.
    check.expectStatus(
      res,
      ACCEPTED,
      `accept at ${clockOf(res)} of offer ${shortId(own.offerId)}, the newest offer of user ${shortId(ownerId)}, after offer ${shortId(others.offerId)} was created for another user ${shortId(otherId)}`,
      { on: 'SPEC-4-4-RULE-1' },
    );
  },
);

/**
 * The trade an accept answer stands for: its own trade id, else — when the
 * answer carries none (a 202) — the one the offer status shows now
 * (undefined when the profile cannot show it).
 */
async function tradeOf(http: HttpClient, section: TradingProfile, bearer: Bearer, offer: CreatedOffer, res: HttpResponse, which: string): Promise<string | undefined> {
  const answered = tradeIdIn(res);
  if (answered || !showsTradeId(section)) return answered;
  return tradeIdInStatus(http, section, bearer, offer, `offer status after the ${which} accept`);
}

defineCheck(
  {
    id: 'trading.second-accept-rejected',
    title: 'An accepted offer is not executed again by a second accept',
    requirements: ['OFFER-SINGLE-EXECUTION'],
    // Each accept answered 202 is followed to its end, within the declared poll deadline.
    waitsMs: (profile) => 2 * settleWaitMs(profile.trading),
  },
  async ({ check, http, profile, tokens }) => {
    const { section, bearer, userId, offer } = await freshOffer({ check, http, profile, tokens });
    const first = await accept(http, offer.offerId, { bearer, userId, label: 'first accept' });
    check.expectStatus(first, ACCEPTED, `first accept of offer ${shortId(offer.offerId)}`, { on: ACCEPTS_NEWEST });
    // A second accept must meet a finished offer too, not only one still in progress.
    if (first.status === 202) await settleIfPossible(check, http, section, tokens, offer);
    // The trade of the first execution, read before the second accept could replace it.
    const firstTrade = await tradeOf(http, section, tokens, offer, first, 'first');
    const second = await accept(http, offer.offerId, { bearer: tokens, userId, label: 'second accept of the same offer' });
    const what = `second accept of offer ${shortId(offer.offerId)} at ${clockOf(second)}`;
    // A server error is judged by what it did, as an answer is: did a second trade appear? (src/check/server-error.ts)
    const broke = isServerError(second.status);
    if (!isSuccess(second.status) && !broke) return check.expectRefused(second, { operation: 'acceptOffer', what });

    // Answered (or broken), not refused: safe as long as nothing executed again.
    if (second.status === 202 && showsTradeId(section)) await settleIfPossible(check, http, section, tokens, offer);
    const secondTrade = await tradeOf(http, section, tokens, offer, second, 'second');
    // A second trade id FAILs (second-accept.ts); the same one is an idempotent replay; without both, a REVIEW.
    check.judge(secondAcceptExecutesNothing, {
      offerId: offer.offerId,
      clock: clockOf(second),
      firstStatus: first.status,
      secondStatus: second.status,
      firstTradeId: firstTrade ?? null,
      secondTradeId: secondTrade ?? null,
    });
    if (broke) {
      const effect = firstTrade && secondTrade
        ? nothingExecuted(`the offer status still shows trade ${shortId(firstTrade)}, so nothing executed again`)
        : effectUnknown(`no trade ids to compare (set ${TRADE_ID_KEY})`);
      check.serverError(second, { operation: 'acceptOffer', what, effect });
    }
  },
);
