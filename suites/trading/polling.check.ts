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
import type { CheckContext } from '../../runner/index.ts';
import { accept, checkUser, createOffer, describeRecipe, pollOffer, RECIPE_KEYS, shortId, statusSettings, tradingSection, type CreatedOffer, type OfferPolling } from './support.ts';

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

defineCheck(
  {
    id: 'trading.accepted-202-reaches-terminal-status',
    title: 'An offer answered 202 reaches a terminal status, polled with backoff within a deadline',
    requirements: ['OFFER-202-STATUS-TERMINAL'],
    waitsMs: (profile) => profile.trading?.pollDeadlineMs ?? 0,
  },
  async ({ check, http, profile, tokens }) => {
    const section = tradingSection(profile, check);
    const { offerStatus } = statusSettings(section, check);
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
    if (outcome.stopped) failUndeclaredAnswer(check, offerStatus.expectStatus ?? [], offer, outcome);
    if (!outcome.reached) {
      const last = outcome.last?.summary ?? 'no status read';
      // Only an answer at or after the deadline shows the offer not terminal then (src/polling.ts).
      if (!outcome.answeredAtDeadline) {
        check.notObserved(`no poll of offer ${shortId(offer.offerId)} was answered at or after the declared ${seconds(outcome.deadlineMs)} deadline (trading.pollDeadlineMs), so whether it had reached a terminal status by then is unknown: ${outcome.polls} polls, last answered ${last}`);
      }
      check.late(
        `offer ${shortId(offer.offerId)} did not reach a terminal status (trading.terminalStatuses: ${section.terminalStatuses!.join(', ')}) within the declared ${seconds(outcome.deadlineMs)} of its 202: ${outcome.polls} polls, last ${last}`,
        { waitedMs: Math.round(outcome.elapsedMs), declaredBy: 'trading.pollDeadlineMs' },
        { polls: outcome.polls, deadlineMs: outcome.deadlineMs, lastStatus: outcome.last?.status ?? null },
      );
    }
    check.note(`offer ${shortId(offer.offerId)} reached ${outcome.last!.status} after ${outcome.polls} polls in ${seconds(outcome.elapsedMs)}`);
  },
);

/** The status operation answered a code its declaration rules out while the offer was processing: the profile's own statement is contradicted. */
function failUndeclaredAnswer(check: CheckContext, declared: readonly number[], offer: CreatedOffer, outcome: OfferPolling): never {
  const last = outcome.last!;
  return check.failDeclared(
    'trading.offerStatus.expectStatus',
    `the offer-status operation answered ${last.httpStatus} for offer ${shortId(offer.offerId)} ${seconds(outcome.elapsedMs)} after its 202 (poll ${outcome.polls}), before any terminal status; the profile declares it answers ${declared.join('/')}`,
    { expected: declared, actual: last.httpStatus, exchange: last.exchangeId, polls: outcome.polls },
  );
}
