// What an accept that must be refused (an older offer, another user's, one
// without svc-user-id or bearer) did to its offer, when it was answered with
// a server error or a 202 (src/check/server-error.ts and
// CheckContext.expectRefused weigh it). The trade the offer status shows
// (trading.offerStatus.extract.tradeId) tells an execution. A 202 says the
// request is "still being processed" (4.4), so the offer is followed to
// where it ends (4.4 rule 4: the caller checks the offer status), within the
// declared poll deadline; so is an offer a server error left without a trade
// but not yet in a terminal status, as processing may have begun.
import { isServerError, type CheckContext, type HttpClient, type HttpResponse } from '../../runner/index.ts';
import type { TradingProfile } from '../../src/config/sections/trading.ts';
import { effectUnknown, executed, nothingExecuted, type Effect } from '../../src/check/server-error.ts';
import { pollOffer, readStatusOnce, SetupError, shortId, showsTradeId, TRADE_ID_KEY, type Bearer, type CreatedOffer, type StatusObservation } from './support.ts';

export interface EffectReader {
  check: CheckContext;
  http: HttpClient;
  section: TradingProfile;
  bearer: Bearer;
}

const tradeIn = (seen: StatusObservation | undefined): string | undefined => (typeof seen?.tradeId === 'string' && seen.tradeId ? seen.tradeId : undefined);

/** The profile declares how to follow an offer to its end: a status to read, terminal statuses and a deadline. */
const canFollow = (section: TradingProfile): boolean => Boolean(section.offerStatus?.extract?.status && section.terminalStatuses?.length && section.pollDeadlineMs);

/**
 * The effect of an accept of `offer` where a refusal was due, read when its
 * answer `res` is a 202 or a server error (undefined for any other answer:
 * it says what happened itself). `on` is the sentence of the rule the
 * accept breaks, which an execution contradicts.
 */
export async function acceptEffect(reader: EffectReader, offer: CreatedOffer, res: HttpResponse, on: string): Promise<Effect | undefined> {
  if (res.status !== 202 && !isServerError(res.status)) return undefined;
  const { check, http, section, bearer } = reader;
  if (!showsTradeId(section)) return effectUnknown(`the offer status shows no trade to tell an execution by (set ${TRADE_ID_KEY})`);
  const of = `offer ${shortId(offer.offerId)}`;
  const executedIf = (seen: StatusObservation | undefined) => {
    const trade = tradeIn(seen);
    return trade ? executed(`executed ${of}: its status shows trade ${shortId(trade)}`, on) : undefined;
  };
  try {
    const now = await readStatusOnce(http, section.offerStatus!, bearer, offer, `offer status after the ${res.status}`);
    if (tradeIn(now)) return executedIf(now);
    if (now.status !== undefined && section.terminalStatuses?.includes(now.status)) return nothingExecuted(`the status of ${of} shows no trade: ${now.summary}, a terminal status`);
    if (!canFollow(section)) {
      return effectUnknown(`${of} shows no trade yet (${now.summary}), and the profile declares no terminal statuses and poll deadline to follow it to its end`);
    }
    const followed = await pollOffer(check, http, section, bearer, offer);
    if (followed.stopped) return effectUnknown(`the status of ${of} answered ${followed.last?.summary ?? 'nothing readable'}`);
    const where = followed.reached ? 'at its end' : `at the declared poll deadline of ${followed.deadlineMs} ms`;
    return executedIf(followed.last) ?? nothingExecuted(`the status of ${of} shows no trade ${where}: ${followed.last?.summary ?? 'no status'}`);
  } catch (error) {
    if (error instanceof SetupError) return effectUnknown(error.message);
    throw error;
  }
}
