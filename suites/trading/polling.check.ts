// After a 202 the offer is in progress, and the offer-status operation shows
// it reaching a terminal state (spec 3.1, 4.4 rules 3-4). Polling backs off
// and stops at trading.pollDeadlineMs; the check's time limit grows by that
// deadline, however long the profile declares it. The spec shows neither the
// status operation nor how long processing may take, so both verdicts rest
// on the profile: an offer not terminal by the declared deadline is late
// (a profile-declared FAIL, the polling timeline as evidence), and a status
// operation answering a code its declared expectStatus rules out (a 404
// while the offer processes) contradicts that declaration. Transient answers
// (429, 503) are asked again and decide nothing; a status that cannot be read
// at the deadline is a set-up ERROR.
import { defineCheck } from '../../runner/index.ts';
import { accept, checkUser, createOffer, describeRecipe, pollOffer, RECIPE_KEYS, shortId, statusSettings, tradingSection } from './support.ts';
import { judgeOfferPolled } from './polling-judgment.ts';

defineCheck(
  {
    id: 'trading.accepted-202-reaches-terminal-status',
    title: 'An offer answered 202 reaches a terminal status, polled with backoff within a deadline',
    requirements: ['OFFER-202-STATUS-TERMINAL'],
    waitsMs: (profile) => profile.trading?.pollDeadlineMs ?? 0,
  },
  async ({ check, http, profile, tokens }) => {
    const section = tradingSection(profile, check);
    const { terminalStatuses } = statusSettings(section, check);
    if (!section.pollDeadlineMs) return check.skip('no deadline for polling the offer status after a 202', 'trading.pollDeadlineMs');
    const recipe = section.recipes.answering202[0];
    if (!recipe) return check.skip('no offer recipe declared to outlast the predefined time, so no 202 to follow up', RECIPE_KEYS.answering202);
    const bearer = tokens;
    const userId = await checkUser({ check, http, profile }, bearer);
    const offer = await createOffer(http, recipe, bearer, userId);
    const res = await accept(http, offer.offerId, { bearer, userId, label: `accept an offer that processes slowly (${describeRecipe(recipe)})` });
    // Whether that 200 contradicts the recipe's declaration is trading.accept-beyond-predefined-time-is-202's concern.
    if (res.status === 200) return check.skip(`the accept answered 200, so there was no 202 to follow up`, recipe.declaredBy);
    check.expectStatus(res, 202, `accept of offer ${shortId(offer.offerId)}`, { on: 'SPEC-1-ACCEPT-OFFER' });
    check.event('202 received', `accept of offer ${shortId(offer.offerId)} answered after ${Math.round(res.durationMs)} ms`);

    // A poll of minutes asks for a token each time, so the one the check started with cannot run out mid-wait.
    const outcome = await pollOffer(check, http, section, tokens, offer);
    // An undeclared answer, a late offer, a deadline no poll was answered at, or the terminal status reached (polling-judgment.ts).
    judgeOfferPolled(check, offer.offerId, terminalStatuses, outcome);
  },
);

