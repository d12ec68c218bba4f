// After a 202 the offer is in progress, and the offer-status operation shows
// it reaching a terminal state (spec 3.1, 4.4 rules 3-4). Polling backs off
// and stops at trading.pollDeadlineMs. The spec shows neither the status
// operation nor how long processing may take: an offer not terminal by the
// deadline the profile declares is a profile-declared FAIL whose evidence is
// the polling timeline; a status that cannot be read is a set-up ERROR.
import { defineCheck } from '../../src/check/index.ts';
import { accept, checkUser, createOffer, describeRecipe, pollOffer, RECIPE_KEYS, shortId, statusSettings, tradingSection } from './support.ts';

defineCheck(
  {
    id: 'trading.accepted-202-reaches-terminal-status',
    title: 'An offer answered 202 reaches a terminal status, polled with backoff within a deadline',
    requirements: ['OFFER-202-STATUS-TERMINAL'],
  },
  async ({ check, http, profile, tokens }) => {
    const section = tradingSection(profile, check);
    statusSettings(section, check);
    if (!section.pollDeadlineMs) return check.skip('no deadline for polling the offer status after a 202', 'trading.pollDeadlineMs');
    const recipe = section.recipes.answering202[0];
    if (!recipe) return check.skip('no offer recipe declared to outlast the predefined time, so no 202 to follow up', RECIPE_KEYS.answering202);
    const bearer = await tokens.get();
    const userId = await checkUser({ check, http, profile }, bearer);
    const offer = await createOffer(http, recipe, bearer, userId);
    const res = await accept(http, offer.offerId, { bearer, userId, label: `accept an offer that processes slowly (${describeRecipe(recipe)})` });
    // Whether that 200 contradicts the recipe's declaration is trading.accept-beyond-predefined-time-is-202's concern.
    if (res.status === 200) return check.skip(`the accept answered 200, so there was no 202 to follow up`, recipe.declaredBy);
    check.expectStatus(res, 202, `accept of offer ${shortId(offer.offerId)}`);
    check.event('202 received', `accept of offer ${shortId(offer.offerId)} answered after ${Math.round(res.durationMs)} ms`);

    const outcome = await pollOffer(check, http, section, bearer, offer);
    if (!outcome.reached) {
      const last = outcome.last?.summary ?? 'no status read';
      check.failDeclared(
        'trading.pollDeadlineMs',
        `offer ${shortId(offer.offerId)} did not reach a terminal status (trading.terminalStatuses: ${section.terminalStatuses!.join(', ')}) within the declared ${(outcome.deadlineMs / 1000).toFixed(1)} s of its 202: ${outcome.polls} polls, last ${last}`,
        { polls: outcome.polls, deadlineMs: outcome.deadlineMs, lastStatus: outcome.last?.status ?? null },
      );
    }
    check.note(`offer ${shortId(offer.offerId)} reached ${outcome.last!.status} after ${outcome.polls} polls in ${(outcome.elapsedMs / 1000).toFixed(1)} s`);
  },
);
