// Simultaneous accepts of one offer (spec 3.1: the offer moves once). Each
// accept is sent once, so the race is not serialized by retries; a round
// answered only with 429/503 exercised nothing and is run again. The race is
// judged by what it did (race.ts).
import { defineCheck, isSuccess } from '../../runner/index.ts';
import { executedNothing, transientWaitMs } from '../../src/http/transient.ts';
import { acceptOnce, checkUser, clockOf, createOffer, settleWaitMs, tradingSection } from './support.ts';
import { judgeExecutions, judgeNoneAccepted, warnBrokenLosers, type Race } from './race.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Rounds at most: a round answered entirely with 429/503 exercised nothing. */
const ROUNDS = 2;

defineCheck(
  {
    id: 'trading.concurrent-accepts-execute-once',
    title: 'Of simultaneous accepts of one offer at most one executes',
    requirements: ['OFFER-SINGLE-EXECUTION-ATOMIC'],
    // An answer without a trade (202) is followed to its end, within the declared poll deadline.
    waitsMs: (profile) => settleWaitMs(profile.trading),
  },
  async ({ check, http, profile, tokens }) => {
    const section = tradingSection(profile, check);
    const n = section.concurrency ?? 8;
    const bearer = tokens;
    const userId = await checkUser({ check, http, profile }, bearer);
    for (let round = 1; round <= ROUNDS; round++) {
      const offer = await createOffer(http, section.recipes.standard, bearer, userId);
      // One attempt each: retrying a 429 here would serialize the race away.
      const results = await Promise.all(
        Array.from({ length: n }, (_, i) => acceptOnce(http, offer.offerId, { bearer, userId, label: `simultaneous accept ${i + 1}/${n}` })),
      );
      const race: Race = { n, statuses: results.map((r) => r.status), when: `at ${clockOf(results[0]!)}`, offer };
      check.event(`round ${round}: ${n} simultaneous accepts answered`, race.statuses.join(', '));
      const answered = results.filter((r) => isSuccess(r.status));
      if (answered.length) {
        await judgeExecutions(check, http, section, tokens, answered, race);
        return warnBrokenLosers(check, results, race);
      }
      if (!results.every((r) => executedNothing(r.status))) return judgeNoneAccepted(check, results, race);
      await sleep(transientWaitMs(results[0]!.headers['retry-after'], 1));
    }
    check.notObserved(`every simultaneous accept was answered 429 or 503 in ${ROUNDS} rounds, so the race was not exercised`);
  },
);

