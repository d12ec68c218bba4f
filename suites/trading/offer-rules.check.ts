// Which offers can be accepted (spec 4.4 rules 1-2, 3.1): only the newest of
// a user, only within its validity period, and each executed only once — also
// when accepts arrive at the same time. Where section 7 ties no code to a
// refusal, any 4xx of accept's list passes (expectRefused). A repeated accept
// may be refused or answered as an idempotent replay of the same trade: only
// a second execution (a second trade id) contradicts the spec.
import { defineCheck, isServerError, isSuccess } from '../../src/check/index.ts';
import type { CheckContext, CheckFixtures, HttpResponse } from '../../src/check/index.ts';
import type { TradingProfile } from '../../src/config/sections/trading.ts';
import type { HttpClient } from '../../src/http/client.ts';
import {
  ACCEPTED,
  accept,
  acceptOnce,
  checkUser,
  clockOf,
  createOffer,
  describeRecipe,
  freshOffer,
  RECIPE_KEYS,
  settleIfPossible,
  shortId,
  tradeIdIn,
  tradeIdInStatus,
  tradingSection,
  type CreatedOffer,
} from './support.ts';
import { transientWaitMs } from '../../src/http/transient.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Longest an expiry check waits for an offer to run out, inside the 60 s check limit. */
const MAX_EXPIRY_WAIT_MS = 45_000;

/** The profile key that makes a repeated execution observable behind a 202. */
const TRADE_ID_KEY = 'trading.offerStatus.extract.tradeId';

defineCheck(
  {
    id: 'trading.older-offer-rejected',
    title: 'Only the newest offer of a user can be accepted',
    requirements: ['OFFER-NEWEST-ONLY'],
  },
  async ({ check, http, profile, tokens }) => {
    const section = tradingSection(profile, check);
    const bearer = await tokens.get();
    const userId = await checkUser({ check, http, profile }, bearer);
    const older = await createOffer(http, section.recipes.standard, bearer, userId, 'create the older offer');
    const newer = await createOffer(http, section.recipes.standard, bearer, userId, 'create a newer offer for the same user');
    const res = await accept(http, older.offerId, { bearer, userId, label: 'accept the older offer' });
    check.expectRefused(res, {
      operation: 'acceptOffer',
      what: `accept at ${clockOf(res)} of the older offer ${shortId(older.offerId)}, although ${shortId(newer.offerId)} is newer`,
    });
    const newest = await accept(http, newer.offerId, { bearer, userId, label: 'accept the newest offer' });
    check.expectStatus(newest, ACCEPTED, `accept of the newest offer ${shortId(newer.offerId)} after the older one was refused`);
  },
);

/** Creates an offer with the expiring recipe, waits until it has run out, and accepts it. */
async function acceptExpiredOffer(check: CheckContext, fixtures: Pick<CheckFixtures, 'http' | 'profile' | 'tokens'>): Promise<{ res: HttpResponse; what: string }> {
  const { http, profile, tokens } = fixtures;
  const section = tradingSection(profile, check);
  const recipe = section.recipes.expiring;
  const validity = recipe?.expiresAfterSeconds;
  if (!recipe || validity === undefined) return check.skip('no offer recipe with a short validity period to let an offer expire', RECIPE_KEYS.expiring);
  const waitMs = validity * 1000 + (section.expiryMarginMs ?? 750);
  if (waitMs > MAX_EXPIRY_WAIT_MS) return check.skip(`waiting ${waitMs} ms for an offer to expire exceeds the check's limit`, `${recipe.declaredBy}`);
  const bearer = await tokens.get();
  const userId = await checkUser({ check, http, profile }, bearer);
  const offer = await createOffer(http, recipe, bearer, userId);
  check.event('offer created', `offer ${shortId(offer.offerId)} valid for ${validity} s (${describeRecipe(recipe)}); waiting ${waitMs} ms`);
  await sleep(waitMs);
  const res = await accept(http, offer.offerId, { bearer, userId, label: `accept ${waitMs} ms after creation` });
  return { res, what: `accept of offer ${shortId(offer.offerId)} at ${clockOf(res)}, ${waitMs} ms after it was created with a ${validity} s validity period` };
}

defineCheck(
  {
    id: 'trading.expired-offer-rejected',
    title: 'An offer cannot be accepted after its validity period',
    requirements: ['OFFER-VALIDITY-PERIOD'],
  },
  async ({ check, ...fixtures }) => {
    const { res, what } = await acceptExpiredOffer(check, fixtures);
    // Which 4xx is the concern of trading.expired-offer-410 (a SHOULD); here only that it is refused.
    check.expectRefused(res, { operation: 'acceptOffer', what });
  },
);

defineCheck(
  {
    id: 'trading.expired-offer-410',
    title: 'An expired offer is answered 410 (record gone)',
    requirements: ['OFFER-EXPIRED-410'],
  },
  async ({ check, ...fixtures }) => {
    const { res, what } = await acceptExpiredOffer(check, fixtures);
    check.expectStatus(res, 410, what);
  },
);

/**
 * The trade an accept answer stands for: its own trade id, else — when the
 * answer carries none (a 202) — the one the offer status shows now
 * (undefined when the profile cannot show it).
 */
async function tradeOf(http: HttpClient, section: TradingProfile, bearer: string, offer: CreatedOffer, res: HttpResponse, which: string): Promise<string | undefined> {
  const answered = tradeIdIn(res);
  if (answered || !showsTradeId(section)) return answered;
  return tradeIdInStatus(http, section, bearer, offer, `offer status after the ${which} accept`);
}

const showsTradeId = (section: TradingProfile) => Boolean(section.offerStatus?.extract?.tradeId);

defineCheck(
  {
    id: 'trading.second-accept-rejected',
    title: 'An accepted offer is not executed again by a second accept',
    requirements: ['OFFER-SINGLE-EXECUTION'],
  },
  async ({ check, http, profile, tokens }) => {
    const { section, bearer, userId, offer } = await freshOffer({ check, http, profile, tokens });
    const first = await accept(http, offer.offerId, { bearer, userId, label: 'first accept' });
    check.expectStatus(first, ACCEPTED, `first accept of offer ${shortId(offer.offerId)}`);
    // A second accept must meet a finished offer too, not only one still in progress.
    if (first.status === 202) await settleIfPossible(check, http, section, bearer, offer);
    // The trade of the first execution, read before the second accept could replace it.
    const firstTrade = await tradeOf(http, section, bearer, offer, first, 'first');
    const second = await accept(http, offer.offerId, { bearer, userId, label: 'second accept of the same offer' });
    const what = `second accept of offer ${shortId(offer.offerId)} at ${clockOf(second)}`;
    if (!isSuccess(second.status)) return check.expectRefused(second, { operation: 'acceptOffer', what });

    // Answered, not refused: safe as long as nothing executed again.
    if (second.status === 202 && showsTradeId(section)) await settleIfPossible(check, http, section, bearer, offer);
    const secondTrade = await tradeOf(http, section, bearer, offer, second, 'second');
    if (firstTrade && secondTrade && firstTrade !== secondTrade) {
      check.fail(`${what} answered ${second.status} and executed the offer again: trade ${shortId(secondTrade)}, after trade ${shortId(firstTrade)} of the first accept`, {
        expected: `a refusal, or the same trade ${firstTrade} again`,
        actual: { status: second.status, tradeId: secondTrade },
        firstTradeId: firstTrade,
      });
    }
    if (firstTrade && secondTrade) {
      return check.note(`idempotent replay: ${what} answered ${second.status} with the same trade ${shortId(firstTrade)}; nothing executed again`);
    }
    check.review(
      `${what} answered ${second.status} (first accept ${first.status}); whether it executed the offer again cannot be observed without a trade id to compare (set ${TRADE_ID_KEY})`,
      { first: first.status, second: second.status, firstTradeId: firstTrade ?? null, secondTradeId: secondTrade ?? null },
    );
  },
);

defineCheck(
  {
    id: 'trading.concurrent-accepts-execute-once',
    title: 'Of simultaneous accepts of one offer at most one executes',
    requirements: ['OFFER-SINGLE-EXECUTION-ATOMIC'],
  },
  async ({ check, http, profile, tokens }) => {
    const section = tradingSection(profile, check);
    const n = section.concurrency ?? 8;
    const bearer = await tokens.get();
    const userId = await checkUser({ check, http, profile }, bearer);
    // Two rounds at most: a round the rate limit answered entirely with 429 exercised nothing.
    for (let round = 1; round <= 2; round++) {
      const offer = await createOffer(http, section.recipes.standard, bearer, userId);
      // One attempt each: retrying a 429 here would serialize the race away.
      const results = await Promise.all(
        Array.from({ length: n }, (_, i) => acceptOnce(http, offer.offerId, { bearer, userId, label: `simultaneous accept ${i + 1}/${n}` })),
      );
      const statuses = results.map((r) => r.status);
      const when = `at ${clockOf(results[0]!)}`;
      check.event(`round ${round}: ${n} simultaneous accepts answered`, statuses.join(', '));
      if (statuses.some(isServerError)) check.fail(`a simultaneous accept of offer ${shortId(offer.offerId)} ${when} caused a server error (${statuses.join(', ')})`, { statuses });
      const answered = results.filter((r) => isSuccess(r.status));
      if (answered.length) return judgeExecutions(check, http, section, bearer, offer, answered, { n, statuses, when });
      const limited = results.filter((r) => r.status === 429);
      if (limited.length < n) {
        check.fail(`none of ${n} simultaneous accepts of the newest offer ${shortId(offer.offerId)} ${when} was accepted (${statuses.join(', ')})`, { statuses });
      }
      await sleep(transientWaitMs(limited[0]!.headers['retry-after'], 1));
    }
    check.skip(`every simultaneous accept was rate limited (429) in both rounds, so the race was not exercised`);
  },
);

/**
 * Counts executions, not answers: several 2xx are fine when they all stand
 * for one trade (an idempotent replay); two trade ids are two executions.
 */
async function judgeExecutions(
  check: CheckContext,
  http: HttpClient,
  section: TradingProfile,
  bearer: string,
  offer: CreatedOffer,
  answered: HttpResponse[],
  race: { n: number; statuses: number[]; when: string },
): Promise<void> {
  const what = `${answered.length} of ${race.n} simultaneous accepts of offer ${shortId(offer.offerId)} ${race.when} were answered ${race.statuses.join(', ')}`;
  const tradeIds = new Set(answered.map(tradeIdIn).filter((id) => id !== undefined));
  const withoutTrade = answered.filter((r) => !tradeIdIn(r));
  let judgedByStatus = '';
  if (tradeIds.size <= 1 && withoutTrade.length && answered.length > 1) {
    // Answers without a trade (202): once processing is over, the offer status shows the trade they stand for.
    const canShow = showsTradeId(section);
    if (canShow && withoutTrade.some((r) => r.status === 202)) await settleIfPossible(check, http, section, bearer, offer);
    const shown = canShow ? await tradeIdInStatus(http, section, bearer, offer, 'offer status after the simultaneous accepts') : undefined;
    if (!shown) {
      return check.review(`${what}; whether more than one executed cannot be observed without a trade id to compare (set ${TRADE_ID_KEY})`, {
        statuses: race.statuses,
      });
    }
    tradeIds.add(shown);
    if (tradeIds.size === 1 && withoutTrade.length > 1) {
      // One status shows one trade: several answers without a trade each may have made (and overwritten) one.
      return check.review(
        `${what}; the offer status shows the one trade ${shortId(shown)}, but ${withoutTrade.length} answers without a trade of their own cannot be counted as executions from one status`,
        { statuses: race.statuses, statusTradeId: shown },
      );
    }
    judgedByStatus = ` (the answer without a trade judged by the offer status, which shows trade ${shortId(shown)})`;
  }
  if (tradeIds.size > 1) {
    check.fail(`${what}: the offer was executed ${tradeIds.size} times (trade ids ${[...tradeIds].map(shortId).join(', ')}); at most one execution may happen`, {
      statuses: race.statuses,
      tradeIds: [...tradeIds],
    });
  }
  if (answered.length > 1) check.note(`idempotent replay: ${what}, all for the one trade ${shortId([...tradeIds][0]!)}${judgedByStatus}`);
}
