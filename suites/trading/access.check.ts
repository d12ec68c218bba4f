// Who may accept which offer (spec 4.4, 5 rules 1 and 4, 7): a bearer
// credential (a valid one: a forged payload is refused) and the svc-user-id of the offer's owner are required, and an
// unknown offer id is refused. Section 7 ties no code to these refusals: any
// 4xx of accept's list passes, and 404 "record not found" too where the offer
// is unknown (or, to the user asking, someone else's). A server error or a
// 202 is judged by what it did to the offer (refusal-effect.ts); an unknown
// id names no offer whose status could show it.
import { defineCheck } from '../../runner/index.ts';
import { tamperPayload } from '../../src/auth/jwt.ts';
import { effectUnknown } from '../../src/check/server-error.ts';
import { ACCEPTED, accept, checkUser, clockOf, createOffer, freshOffer, ownerAndOtherUser, settleWaitMs, shortId, tradingSection } from './support.ts';
import { acceptEffect } from './refusal-effect.ts';

/** 7: "404 is named record not found": not in accept's list, but the name fits an offer the user cannot see. */
const RECORD_NOT_FOUND = [404] as const;

/** What an accept of an id that names no offer did cannot be read: there is no offer whose status could show it. */
const NO_OFFER_TO_READ = effectUnknown('the id names no offer, so no offer status can show what the request did');

defineCheck(
  {
    id: 'trading.other-users-offer-rejected',
    title: 'An offer cannot be accepted with another user\'s svc-user-id',
    requirements: ['OFFER-OWNERSHIP'],
    // An accept answered 202 or 5xx is followed to the offer's end, within the declared poll deadline.
    waitsMs: (profile) => settleWaitMs(profile.trading),
  },
  async ({ check, http, profile, tokens }) => {
    const section = tradingSection(profile, check);
    const bearer = tokens;
    const { ownerId, otherId } = await ownerAndOtherUser({ check, http, profile }, bearer);
    const offer = await createOffer(http, section.recipes.standard, bearer, ownerId);
    const res = await accept(http, offer.offerId, { bearer, userId: otherId, label: 'accept as another user' });
    check.expectRefused(res, {
      operation: 'acceptOffer',
      what: `accept at ${clockOf(res)} of user ${shortId(ownerId)}'s offer ${shortId(offer.offerId)} for user ${shortId(otherId)}`,
      alsoAllowed: RECORD_NOT_FOUND,
      effect: await acceptEffect({ check, http, section, bearer }, offer, res, 'OFFER-OWNERSHIP'),
    });
    const own = await accept(http, offer.offerId, { bearer, userId: ownerId, label: 'accept by the owner' });
    check.expectStatus(own, ACCEPTED, `accept of offer ${shortId(offer.offerId)} by its owner after another user's attempt`, { on: 'SPEC-1-ACCEPT-OFFER' });
  },
);

defineCheck(
  {
    id: 'trading.unknown-offer-rejected',
    title: 'Accepting an unknown or malformed offer id is rejected',
    requirements: ['OFFER-UNKNOWN-REJECTED'],
  },
  async ({ check, http, profile, tokens }) => {
    // No offer is needed, and none changes: only a user to send as svc-user-id.
    const bearer = tokens;
    const userId = await checkUser({ check, http, profile }, bearer, { changesOffers: false });
    const unknown = crypto.randomUUID();
    const res = await accept(http, unknown, { bearer, userId, label: 'accept an unknown offer id' });
    check.expectRefused(res, { operation: 'acceptOffer', what: `accept of the unknown offer ${shortId(unknown)}`, alsoAllowed: RECORD_NOT_FOUND, effect: NO_OFFER_TO_READ });
    const malformed = await accept(http, 'not-an-offer-id', { bearer, userId, label: 'accept a malformed offer id' });
    check.expectRefused(malformed, { operation: 'acceptOffer', what: 'accept of the malformed offer id "not-an-offer-id"', alsoAllowed: RECORD_NOT_FOUND, effect: NO_OFFER_TO_READ });
  },
);

defineCheck(
  {
    id: 'trading.accept-without-bearer-401',
    title: 'Accepting an offer without a bearer credential is refused (401 expected)',
    requirements: ['OFFER-BEARER-REQUIRED'],
    waitsMs: (profile) => settleWaitMs(profile.trading),
  },
  async ({ check, http, profile, tokens }) => {
    const { section, bearer, userId, offer } = await freshOffer({ check, http, profile, tokens });
    const res = await accept(http, offer.offerId, { userId, label: 'accept without Authorization' });
    const what = `accept at ${clockOf(res)} of offer ${shortId(offer.offerId)} without a bearer credential`;
    check.expectUnauthorized(res, what, { operation: 'acceptOffer', effect: await acceptEffect({ check, http, section, bearer }, offer, res, 'OFFER-BEARER-REQUIRED') });
  },
);

defineCheck(
  {
    id: 'trading.accept-with-tampered-bearer-401',
    title: 'Accepting an offer with a tampered bearer token is refused (401 expected)',
    requirements: ['OFFER-BEARER-INVALID-REJECTED'],
    waitsMs: (profile) => settleWaitMs(profile.trading),
  },
  async ({ check, http, profile, tokens }) => {
    // Each operation verifies the bearer on its own: user details refusing a forged token says nothing of accept.
    const { section, bearer, userId, offer } = await freshOffer({ check, http, profile, tokens });
    const forged = tamperPayload(await tokens.current());
    const res = await accept(http, offer.offerId, { bearer: forged, userId, label: 'accept with a forged access token' });
    const what = `accept at ${clockOf(res)} of offer ${shortId(offer.offerId)} with an access token whose payload was forged under its signature`;
    check.expectUnauthorized(res, what, { operation: 'acceptOffer', effect: await acceptEffect({ check, http, section, bearer }, offer, res, 'OFFER-BEARER-INVALID-REJECTED') });
  },
);

defineCheck(
  {
    id: 'trading.accept-without-user-header-rejected',
    title: 'Accepting an offer without svc-user-id is rejected',
    requirements: ['OFFER-USER-HEADER-REQUIRED'],
    waitsMs: (profile) => settleWaitMs(profile.trading),
  },
  async ({ check, http, profile, tokens }) => {
    const { section, bearer, offer } = await freshOffer({ check, http, profile, tokens });
    const res = await accept(http, offer.offerId, { bearer, label: 'accept without svc-user-id' });
    // 4.4 names the header; which refusal a request without it gets is not shown (422 parameter error and 403 forbidden are both in the list).
    check.expectRefused(res, {
      operation: 'acceptOffer',
      what: `accept at ${clockOf(res)} of offer ${shortId(offer.offerId)} without svc-user-id`,
      effect: await acceptEffect({ check, http, section, bearer }, offer, res, 'OFFER-USER-HEADER-REQUIRED'),
    });
  },
);
