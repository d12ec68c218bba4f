// Accepting the newest valid offer (spec 4.4 rules 1-3, 3.1, 2.4):
// 200 with the accepted trade when processing finishes within the short
// predefined time, 202 when it does not. The predefined time is not shown, so
// which offer is fast or slow is what the profile declares
// (offer recipes declaring acceptAnswers 200 or 202, trading.offerRecipes, or
// the older trading.fastProcessingMs / slowProcessingMs): a 200/202 against
// the declaration is a profile-declared FAIL. No request body is shown: every
// accept goes without one, and one check records what a {} body gets.
import { defineCheck } from '../../runner/index.ts';
import { ACCEPTED, accept, checkUser, clockOf, createOffer, describeRecipe, freshOffer, readStatusOnce, RECIPE_KEYS, shortId, tradingSection } from './support.ts';
import type { ResolvedRecipe } from '../../src/config/sections/offer-recipes.ts';
import { fastOfferAnswered200, slowOfferAnswered202, type RecipeSeen } from './recipe-answers.ts';
import { acceptAnswerIsJson, acceptedAnswerCarriesTrade, acceptWithBody, acceptWithExternalTransactionId, dataKindOf, externalTransactionIdReported } from './accept-answers.ts';

/** The recipe as a judgment's input names it. */
const recipeSeen = (recipe: ResolvedRecipe): RecipeSeen => ({ name: recipe.name, declaredBy: recipe.declaredBy, label: describeRecipe(recipe) });

/** The profile's value at key, as a judgment's input carries it: absent when the profile gives none. */
const declared = (value: unknown): { declaredValue?: unknown } => (value === undefined ? {} : { declaredValue: value });

defineCheck(
  {
    id: 'trading.accept-newest-offer',
    title: 'Accepting the newest valid offer answers 200 with the trade or 202',
    requirements: ['OFFER-ACCEPT-RESULT'],
  },
  async ({ check, http, profile, tokens }) => {
    const { bearer, userId, offer } = await freshOffer({ check, http, profile, tokens });
    const res = await accept(http, offer.offerId, { bearer, userId, label: 'accept the newest offer (no request body)' });
    check.expectStatus(res, ACCEPTED, `accept without a request body of the newest offer ${shortId(offer.offerId)} of user ${shortId(userId)}`);
    check.note(`the accept carried no request body (4.4: "No request body is shown") and answered ${res.status}`);
    check.judge(acceptedAnswerCarriesTrade, { offerId: offer.offerId, status: res.status, dataKind: dataKindOf(res.json), exchange: res.exchangeId });
  },
);

defineCheck(
  {
    id: 'trading.accept-within-predefined-time-is-200',
    title: 'An offer that finishes processing within the predefined time is answered 200, not 202',
    requirements: ['OFFER-200-WITHIN-PREDEFINED-TIME'],
  },
  async ({ check, http, profile, tokens }) => {
    const section = tradingSection(profile, check);
    const recipes = section.recipes.answering200;
    if (!recipes.length) return check.skip('no offer recipe declared to finish processing within the predefined time', RECIPE_KEYS.answering200);
    const bearer = tokens;
    const userId = await checkUser({ check, http, profile }, bearer);
    const predefined = section.processingTimeMs === undefined ? '' : `; predefined time ${section.processingTimeMs} ms`;
    for (const recipe of recipes) {
      const offer = await createOffer(http, recipe, bearer, userId);
      const res = await accept(http, offer.offerId, { bearer, userId, label: `accept an offer (${describeRecipe(recipe)})` });
      // The spec does not show the predefined time: which offers finish within it is the profile's statement.
      check.judge(fastOfferAnswered200, {
        offerId: offer.offerId,
        recipe: recipeSeen(recipe),
        status: res.status,
        processingTimeMs: section.processingTimeMs ?? null,
        ...declared(check.declaredValue(recipe.declaredBy)),
        exchange: res.exchangeId,
      });
      check.expectStatus(res, 200, `accept of the newest offer ${shortId(offer.offerId)} (${describeRecipe(recipe)}${predefined})`, { on: 'SPEC-3-1-ACCEPTED-ROW' });
    }
  },
);

defineCheck(
  {
    id: 'trading.accept-beyond-predefined-time-is-202',
    title: 'An offer whose processing outlasts the predefined time is answered 202 without waiting',
    requirements: ['OFFER-202-WHEN-SLOW'],
  },
  async ({ check, http, profile, tokens }) => {
    const section = tradingSection(profile, check);
    const recipes = section.recipes.answering202;
    if (!recipes.length) return check.skip('no offer recipe declared to outlast the predefined time', RECIPE_KEYS.answering202);
    const bearer = tokens;
    const userId = await checkUser({ check, http, profile }, bearer);
    for (const recipe of recipes) {
      const offer = await createOffer(http, recipe, bearer, userId);
      const res = await accept(http, offer.offerId, { bearer, userId, label: `accept an offer (${describeRecipe(recipe)})` });
      check.judge(slowOfferAnswered202, {
        offerId: offer.offerId,
        recipe: recipeSeen(recipe),
        status: res.status,
        durationMs: Math.round(res.durationMs),
        ...declared(check.declaredValue(recipe.declaredBy)),
        exchange: res.exchangeId,
      });
      check.expectStatus(res, 202, `accept of the newest offer ${shortId(offer.offerId)} (${describeRecipe(recipe)})`, { on: 'SPEC-4-4-RULE-3' });
      check.event('202 received', `after ${Math.round(res.durationMs)} ms`);
    }
  },
);

defineCheck(
  {
    id: 'trading.accepted-trade-schema',
    title: 'The 200 answer of an accept carries the accepted trade of 2.4',
    requirements: ['OFFER-ACCEPTED-TRADE-SCHEMA'],
  },
  async ({ check, http, profile, tokens }) => {
    const { section, bearer, userId, offer } = await freshOffer({ check, http, profile, tokens });
    const res = await accept(http, offer.offerId, { bearer, userId, label: 'accept an offer to read its trade' });
    if (res.status === 202) {
      // Whether that 202 contradicts the profile is trading.accept-within-predefined-time-is-200's concern.
      const hint = section.recipes.answering200.length ? undefined : RECIPE_KEYS.answering200;
      return check.skip(`the accept of offer ${shortId(offer.offerId)} answered 202 (still processing), so there is no trade body to validate`, hint);
    }
    check.expectStatus(res, 200, `accept of offer ${shortId(offer.offerId)}`, { on: 'SPEC-1-ACCEPT-OFFER' });
    // time's format, iso8601-date-time, is 2.4's "ISO 8601 timestamp with UTC offset" whole (src/schemas/iso8601.ts): a date or
    // time that does not exist FAILs there; a null time is a WARN there, as every documented null is.
    check.expectSchema(res, 'accepted-trade.schema.json', `accepted trade of offer ${shortId(offer.offerId)}`);
  },
);

defineCheck(
  {
    id: 'trading.accept-responses-are-json',
    title: 'Accept answers carry JSON bodies (application/json)',
    requirements: ['OFFER-JSON-BODY'],
  },
  async ({ check, http, profile, tokens }) => {
    const section = tradingSection(profile, check);
    const bearer = tokens;
    const userId = await checkUser({ check, http, profile }, bearer);
    // The standard offer and a slow one, so both a 200 and a 202 answer are seen where the profile says how.
    const recipes = [section.recipes.standard, ...section.recipes.answering202.slice(0, 1)];
    for (const recipe of recipes) {
      const offer = await createOffer(http, recipe, bearer, userId);
      const res = await accept(http, offer.offerId, { bearer, userId, label: `accept an offer (${describeRecipe(recipe)})` });
      check.expectStatus(res, ACCEPTED, `accept of offer ${shortId(offer.offerId)}`, { on: 'SPEC-1-ACCEPT-OFFER' });
      // 4.4 does not show the 202 body; if there is one, it is JSON like every body of the API (1).
      if (res.status === 202 && res.body.length === 0) continue;
      check.expectJsonContentType(res, `the ${res.status} answer to accept of offer ${shortId(offer.offerId)}`, { on: 'SPEC-1-JSON' });
      check.judge(acceptAnswerIsJson, { offerId: offer.offerId, status: res.status, jsonError: res.json === undefined ? String(res.jsonError) : null, exchange: res.exchangeId });
    }
  },
);

defineCheck(
  {
    id: 'trading.external-transaction-id-accepted',
    title: 'Accept takes the external_transaction_id query parameter',
    requirements: ['OFFER-EXTERNAL-TRANSACTION-ID'],
  },
  async ({ check, http, profile, tokens }) => {
    const { section, bearer, userId, offer } = await freshOffer({ check, http, profile, tokens });
    // A plain UUID: the parameter's format is not shown, and a UUID is what a partner's transaction id most often is.
    const externalTransactionId = crypto.randomUUID();
    const res = await accept(http, offer.offerId, { bearer, userId, externalTransactionId, label: 'accept with external_transaction_id' });
    check.judge(acceptWithExternalTransactionId, { offerId: offer.offerId, externalTransactionId, clock: clockOf(res), status: res.status, exchange: res.exchangeId });
    // Its meaning is not shown (4.4); when the status operation exposes it, whether it was kept is worth a look.
    if (!section.offerStatus?.extract?.externalTransactionId) return;
    const observed = await readStatusOnce(http, section.offerStatus, bearer, offer, 'offer status after accept with external_transaction_id');
    const reported = observed.externalTransactionId;
    check.judge(externalTransactionIdReported, { sent: externalTransactionId, ...(reported === undefined ? {} : { reported }) });
  },
);

defineCheck(
  {
    id: 'trading.accept-with-empty-json-body',
    title: 'What an accept carrying an empty JSON object body gets is recorded (no request body is shown)',
    requirements: ['OFFER-ACCEPT-BODY-NOT-SHOWN'],
  },
  async ({ check, http, profile, tokens }) => {
    const { bearer, userId, offer } = await freshOffer({ check, http, profile, tokens });
    const res = await accept(http, offer.offerId, { bearer, userId, json: {}, label: 'accept with the body {}' });
    // 4.4 shows no body: ignoring one and refusing one are both the implementation's choice; breaking on one is not.
    check.judge(acceptWithBody, { offerId: offer.offerId, clock: clockOf(res), status: res.status, exchange: res.exchangeId });
  },
);
