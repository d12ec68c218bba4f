// Who may accept which offer (spec 4.4, 5 rules 1 and 4, 7): a bearer
// credential and the svc-user-id of the offer's owner are required, and an
// unknown offer id is rejected.
import { defineCheck, isSuccess } from '../../src/check/index.ts';
import { ACCEPTED, accept, checkUser, clockOf, createOffer, freshOffer, isAccepted, shortId, tradingSection } from './support.ts';

defineCheck(
  {
    id: 'trading.other-users-offer-rejected',
    title: 'An offer cannot be accepted with another user\'s svc-user-id',
    area: 'trading',
    requirements: ['OFFER-OWNERSHIP'],
    severity: 'MUST',
  },
  async ({ check, http, profile, tokens }) => {
    const section = tradingSection(profile, check);
    const bearer = await tokens.get();
    const ownerId = await checkUser(check, http, section, bearer);
    const otherId = section.otherUserId ?? (section.createUser ? await checkUser(check, http, section, bearer) : undefined);
    if (!otherId) return check.skip('no second user to try someone else\'s offer with', 'trading.otherUserId');
    if (otherId === ownerId) return check.skip('trading.otherUserId is the same user as the offer owner', 'trading.otherUserId');
    const offer = await createOffer(http, section, bearer, { userId: ownerId, processingMs: section.fastProcessingMs });
    const res = await accept(check, http, offer.offerId, { bearer, userId: otherId, label: 'accept as another user' });
    if (isAccepted(res.status)) {
      check.fail(`offer ${shortId(offer.offerId)} of user ${shortId(ownerId)} was accepted at ${clockOf(res)} for user ${shortId(otherId)}: ${res.status}`, {
        expected: '4xx (403)',
        actual: res.status,
      });
    }
    check.expectRejected(res, `accept of user ${shortId(ownerId)}'s offer ${shortId(offer.offerId)} for user ${shortId(otherId)}`, [403]);
    const own = await accept(check, http, offer.offerId, { bearer, userId: ownerId, label: 'accept by the owner' });
    check.expectStatus(own, ACCEPTED, `accept of offer ${shortId(offer.offerId)} by its owner after another user's attempt`);
  },
);

defineCheck(
  {
    id: 'trading.unknown-offer-rejected',
    title: 'Accepting an unknown or malformed offer id is rejected',
    area: 'trading',
    requirements: ['OFFER-UNKNOWN-REJECTED'],
    severity: 'MUST',
  },
  async ({ check, http, profile, tokens }) => {
    // No offer is needed: only a user to send as svc-user-id.
    const bearer = await tokens.get();
    const userId = await checkUser(check, http, profile.trading ?? {}, bearer);
    const unknown = crypto.randomUUID();
    const res = await accept(check, http, unknown, { bearer, userId, label: 'accept an unknown offer id' });
    // 7 names 404 "record not found" and 410 "record gone"; 4.4's list has 410 only.
    check.expectRejected(res, `accept of the unknown offer ${shortId(unknown)}`, [404, 410]);
    const malformed = await accept(check, http, 'not-an-offer-id', { bearer, userId, label: 'accept a malformed offer id' });
    check.expectRejected(malformed, 'accept of the malformed offer id "not-an-offer-id"', [404, 410, 422]);
  },
);

defineCheck(
  {
    id: 'trading.accept-without-bearer-401',
    title: 'Accepting an offer without a bearer credential answers 401',
    area: 'trading',
    requirements: ['OFFER-BEARER-REQUIRED'],
    severity: 'MUST',
  },
  async ({ check, http, profile, tokens }) => {
    const { userId, offer } = await freshOffer({ check, http, profile, tokens });
    const res = await accept(check, http, offer.offerId, { userId, label: 'accept without Authorization' });
    if (isSuccess(res.status)) check.fail(`offer ${shortId(offer.offerId)} was accepted without a bearer credential at ${clockOf(res)}: ${res.status}`, { expected: 401, actual: res.status });
    check.expectStatus(res, 401, `accept of offer ${shortId(offer.offerId)} without a bearer credential`);
  },
);

defineCheck(
  {
    id: 'trading.accept-without-user-header-rejected',
    title: 'Accepting an offer without svc-user-id is rejected',
    area: 'trading',
    requirements: ['OFFER-USER-HEADER-REQUIRED'],
    severity: 'MUST',
  },
  async ({ check, http, profile, tokens }) => {
    const { bearer, offer } = await freshOffer({ check, http, profile, tokens });
    const res = await accept(check, http, offer.offerId, { bearer, label: 'accept without svc-user-id' });
    if (isAccepted(res.status)) check.fail(`offer ${shortId(offer.offerId)} was accepted without svc-user-id at ${clockOf(res)}: ${res.status}`, { expected: '4xx (422)', actual: res.status });
    // 422 is the parameter error 4.4 documents; 400 is not in its list.
    check.expectRejected(res, `accept of offer ${shortId(offer.offerId)} without svc-user-id`, [422]);
  },
);
