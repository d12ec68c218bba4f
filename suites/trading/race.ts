// Judging a race of simultaneous accepts of one offer (spec 3.1: the offer
// moves once, from "offer" to accepted or in progress) by what it did: how
// many executions its answers and the offer status show (trade ids), never
// by how its losers were answered. A loser's 5xx is at most a WARN
// (src/check/outcome.ts, rule 5); a 429 or 503 is a transient answer that
// executed nothing and decides nothing. A gateway's 502 or 504 may come after
// the accept executed: it counts as a server error here.
import { isServerError } from '../../src/check/context.ts';
import type { CheckContext } from '../../src/check/context.ts';
import type { HttpClient, HttpResponse } from '../../src/http/client.ts';
import type { TradingProfile } from '../../src/config/sections/trading.ts';
import { executedNothing } from '../../src/http/transient.ts';
import { shortId, type Bearer, type CreatedOffer } from './common.ts';
import { settleIfPossible, showsTradeId, TRADE_ID_KEY, tradeIdIn, tradeIdInStatus } from './status.ts';

export interface Race {
  n: number;
  statuses: number[];
  when: string;
  offer: CreatedOffer;
}

/** A loser's server error says how it lost, not what the race did: at most a WARN. */
export function warnBrokenLosers(check: CheckContext, results: HttpResponse[], race: Race): void {
  for (const res of results.filter((r) => isServerError(r.status) && !executedNothing(r.status))) {
    check.warn(
      `a simultaneous accept of offer ${shortId(race.offer.offerId)} ${race.when} lost the race with a server error ${res.status} (${race.statuses.join(', ')})`,
      { exchange: res.exchangeId, statuses: race.statuses },
      { observed: { kind: 'race-loser', status: res.status } },
    );
  }
}

/**
 * No accept answered 200 or 202. With a server error among them, one of them
 * may have been the execution, answered badly: a WARN. Refusals only (beside
 * transient answers, which executed nothing): the newest valid offer was not
 * accepted at all, which 1 and 3.1 contradict.
 */
export function judgeNoneAccepted(check: CheckContext, results: HttpResponse[], race: Race): void {
  const what = `none of ${race.n} simultaneous accepts of the newest offer ${shortId(race.offer.offerId)} ${race.when} was accepted (${race.statuses.join(', ')})`;
  if (results.some((r) => isServerError(r.status) && !executedNothing(r.status))) {
    warnBrokenLosers(check, results, race);
    return check.review(`${what}: with server errors among the answers, whether the offer executed cannot be told from them`, { statuses: race.statuses });
  }
  const refusal = results.find((r) => !executedNothing(r.status))!;
  check.fail(what, { statuses: race.statuses, exchange: refusal.exchangeId }, { on: 'SPEC-1-ACCEPT-OFFER' });
}

/**
 * Counts executions, not answers: several 2xx are fine when they all stand
 * for one trade (an idempotent replay); two trade ids are two executions.
 */
export async function judgeExecutions(check: CheckContext, http: HttpClient, section: TradingProfile, bearer: Bearer, answered: HttpResponse[], race: Race): Promise<void> {
  const { offer } = race;
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
      return check.review(`${what}; whether more than one executed cannot be observed without a trade id to compare (set ${TRADE_ID_KEY})`, { statuses: race.statuses });
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
