// An offer must be accepted within its validity period (spec 4.4 rule 2;
// 8: the period itself is not shown). How long an offer stays valid is what
// the profile declares (a recipe's expiresAfterSeconds), so the checks wait
// that long — however long it is: their time limit grows by it — and then
// the clock step the implementation shows and a margin (clock.ts): a
// whole-second server judges an offer expired only once the next second
// has begun. Every recipe that declares a validity is tried (expiry.ts). An
// expired offer still accepted contradicts the profile's declaration: a
// profile-declared FAIL naming the recipe. A 202 is neither a refusal nor
// yet an acceptance (4.4: received, still processing): the offer is followed
// to where it ends, which decides. Both judgments: expired-202.ts.
import { defineCheck } from '../../runner/index.ts';
import { followToEnd, settleWaitMs, tradingSection } from './support.ts';
import { expiryWaitsMs, judgeEachExpiredOffer } from './expiry.ts';
import { declaredValidity, expiredOfferNotAccepted, judgeExpired202 } from './expired-202.ts';

defineCheck(
  {
    id: 'trading.expired-offer-rejected',
    title: 'An offer cannot be accepted after its validity period',
    requirements: ['OFFER-VALIDITY-PERIOD'],
    // A 202 is followed to its end, within the declared poll deadline.
    waitsMs: (profile) => expiryWaitsMs(profile, settleWaitMs(profile.trading)),
  },
  async (fixtures) => {
    const { check, http, tokens } = fixtures;
    const section = tradingSection(fixtures.profile, check);
    await judgeEachExpiredOffer(fixtures, section, async (accepted) => {
      const { offer, res, what } = accepted;
      if (res.status === 202) return judgeExpired202(check, accepted, await followToEnd(check, http, section, tokens, offer));
      // Accepted outright: the declared validity is contradicted (expired-202.ts).
      check.judge(expiredOfferNotAccepted, { ...declaredValidity(check, accepted), status: res.status, exchange: res.exchangeId });
      // Which 4xx is the concern of trading.expired-offer-410 (a SHOULD); here only that it is refused.
      check.expectRefused(res, { operation: 'acceptOffer', what });
    });
  },
);

defineCheck(
  {
    id: 'trading.expired-offer-410',
    title: 'An expired offer is answered 410 (record gone)',
    requirements: ['OFFER-EXPIRED-410'],
    waitsMs: (profile) => expiryWaitsMs(profile),
  },
  async (fixtures) => {
    const { check } = fixtures;
    const section = tradingSection(fixtures.profile, check);
    await judgeEachExpiredOffer(fixtures, section, ({ res, what }) => check.expectStatus(res, 410, what));
  },
);
