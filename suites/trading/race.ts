// Judging a race of simultaneous accepts of one offer (spec 3.1: the offer
// moves once, from "offer" to accepted or in progress) by what it did: how
// many executions its answers and the offer status show (trade ids), never
// by how its losers were answered. A loser's 5xx is at most a WARN
// (src/check/outcome.ts, rule 5); a 429 or 503 is a transient answer that
// executed nothing and decides nothing. A gateway's 502 or 504 may come after
// the accept executed: it counts as a server error here.
//
// The judgments are named and pure (src/check/judgments.ts): the race's
// statuses, the trade ids its answers carry and the one the offer status
// showed are their input, so a stored race is judged again by the installed
// suite. The functions the check calls read what the judgments need (the
// offer status, where the answers cannot show a trade) and apply them.
import { isServerError, isSuccess } from '../../src/check/context.ts';
import type { CheckContext } from '../../src/check/context.ts';
import { defineJudgment, type JudgmentSays } from '../../src/check/judgments.ts';
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

/** One simultaneous accept as a judgment reads it. */
export interface RaceAnswer {
  status: number;
  exchange: number;
}

/** The race's answers (every accept of the round, in the order sent). */
export interface RaceAnswers {
  offerId: string;
  /** When the accepts were sent ("at HH:MM:SS"), as the reasons say it. */
  when: string;
  answers: RaceAnswer[];
}

const brokenOf = (answers: readonly RaceAnswer[]) => answers.filter((a) => isServerError(a.status) && !executedNothing(a.status));

function warnLosers(input: RaceAnswers, says: JudgmentSays): void {
  const statuses = input.answers.map((a) => a.status);
  for (const loser of brokenOf(input.answers)) {
    says.warn(
      `a simultaneous accept of offer ${shortId(input.offerId)} ${input.when} lost the race with a server error ${loser.status} (${statuses.join(', ')})`,
      { exchange: loser.exchange, statuses },
      { observed: { kind: 'race-loser', status: loser.status } },
    );
  }
}

/** A loser's server error says how it lost, not what the race did: at most a WARN. */
export const raceLosers = defineJudgment<RaceAnswers>('trading.race-losers', warnLosers);

/**
 * No accept answered 200 or 202. With a server error among them, one of them
 * may have been the execution, answered badly: a WARN. Refusals only (beside
 * transient answers, which executed nothing): the newest valid offer was not
 * accepted at all, which 1 and 3.1 contradict. A round of transient answers
 * only exercised nothing: the check runs another and does not apply this.
 */
export const raceNoneAccepted = defineJudgment<RaceAnswers>('trading.race-none-accepted', (input, says) => {
  const statuses = input.answers.map((a) => a.status);
  if (statuses.some(isSuccess)) return;
  const what = `none of ${input.answers.length} simultaneous accepts of the newest offer ${shortId(input.offerId)} ${input.when} was accepted (${statuses.join(', ')})`;
  if (brokenOf(input.answers).length) {
    warnLosers(input, says);
    return says.review(`${what}: with server errors among the answers, whether the offer executed cannot be told from them`, { statuses });
  }
  const refusal = input.answers.find((a) => !executedNothing(a.status));
  if (!refusal) return;
  says.fail(what, { statuses, exchange: refusal.exchange }, { on: 'SPEC-1-ACCEPT-OFFER', observed: { kind: 'answer', status: refusal.status } });
});

export interface RaceExecutions {
  offerId: string;
  when: string;
  /** The statuses of every accept of the round, in the order sent. */
  statuses: number[];
  /** The accepts answered 200 or 202, with the trade each answer carries (a 200's 2.4 trade_id; null: none). */
  answered: Array<{ status: number; tradeId: string | null }>;
  /**
   * The trade the offer status showed after the race, read only where
   * needsStatusTrade says (absent otherwise); null when it showed none or the
   * profile cannot show one (trading.offerStatus.extract.tradeId).
   */
  statusTradeId?: string | null;
}

const tradesIn = (answered: RaceExecutions['answered']) => new Set(answered.flatMap((a) => (a.tradeId ? [a.tradeId] : [])));

/**
 * Several accepts answered, at most one trade among their answers, and some
 * without one (a 202): only the offer status can show the trade they stand
 * for, so it is read before judging.
 */
export function needsStatusTrade(answered: RaceExecutions['answered']): boolean {
  return tradesIn(answered).size <= 1 && answered.some((a) => !a.tradeId) && answered.length > 1;
}

/**
 * Counts executions, not answers: several 2xx are fine when they all stand
 * for one trade (an idempotent replay); two trade ids are two executions
 * (the FAIL rests on the effect, not on an answer).
 */
export const raceExecutions = defineJudgment<RaceExecutions>('trading.race-executions', (input, says) => {
  const { answered, statuses } = input;
  const what = `${answered.length} of ${statuses.length} simultaneous accepts of offer ${shortId(input.offerId)} ${input.when} were answered ${statuses.join(', ')}`;
  const tradeIds = tradesIn(answered);
  const withoutTrade = answered.filter((a) => !a.tradeId);
  let judgedByStatus = '';
  if (needsStatusTrade(answered)) {
    // Answers without a trade (202): once processing is over, the offer status shows the trade they stand for.
    const shown = input.statusTradeId;
    if (!shown) {
      return says.review(`${what}; whether more than one executed cannot be observed without a trade id to compare (set ${TRADE_ID_KEY})`, { statuses });
    }
    tradeIds.add(shown);
    if (tradeIds.size === 1 && withoutTrade.length > 1) {
      // One status shows one trade: several answers without a trade each may have made (and overwritten) one.
      return says.review(
        `${what}; the offer status shows the one trade ${shortId(shown)}, but ${withoutTrade.length} answers without a trade of their own cannot be counted as executions from one status`,
        { statuses, statusTradeId: shown },
      );
    }
    judgedByStatus = ` (the answer without a trade judged by the offer status, which shows trade ${shortId(shown)})`;
  }
  if (tradeIds.size > 1) {
    return says.fail(`${what}: the offer was executed ${tradeIds.size} times (trade ids ${[...tradeIds].map(shortId).join(', ')}); at most one execution may happen`, {
      statuses,
      tradeIds: [...tradeIds],
    });
  }
  if (answered.length > 1) says.note(`idempotent replay: ${what}, all for the one trade ${shortId([...tradeIds][0]!)}${judgedByStatus}`);
});

const answersOf = (results: readonly HttpResponse[]): RaceAnswer[] => results.map((r) => ({ status: r.status, exchange: r.exchangeId }));

/** Applies raceLosers to the race's answers. */
export function warnBrokenLosers(check: CheckContext, results: HttpResponse[], race: Race): void {
  check.judge(raceLosers, { offerId: race.offer.offerId, when: race.when, answers: answersOf(results) });
}

/** Applies raceNoneAccepted to a round in which no accept was answered 200 or 202. */
export function judgeNoneAccepted(check: CheckContext, results: HttpResponse[], race: Race): void {
  check.judge(raceNoneAccepted, { offerId: race.offer.offerId, when: race.when, answers: answersOf(results) });
}

/**
 * Reads the trade the offer status shows where the answers cannot show it
 * (followed to its end first when an answer was a 202), and applies
 * raceExecutions to the answered accepts.
 */
export async function judgeExecutions(check: CheckContext, http: HttpClient, section: TradingProfile, bearer: Bearer, answered: HttpResponse[], race: Race): Promise<void> {
  const { offer } = race;
  const seen = answered.map((r) => ({ status: r.status, tradeId: tradeIdIn(r) ?? null }));
  let statusTrade: { statusTradeId?: string | null } = {};
  if (needsStatusTrade(seen)) {
    const canShow = showsTradeId(section);
    if (canShow && seen.some((a) => a.status === 202 && !a.tradeId)) await settleIfPossible(check, http, section, bearer, offer);
    const shown = canShow ? await tradeIdInStatus(http, section, bearer, offer, 'offer status after the simultaneous accepts') : undefined;
    statusTrade = { statusTradeId: shown ?? null };
  }
  check.judge(raceExecutions, { offerId: offer.offerId, when: race.when, statuses: race.statuses, answered: seen, ...statusTrade });
}
