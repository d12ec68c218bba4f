// Reading an offer's status (the spec's "get a trade offer status", not
// shown: the profile's trading.offerStatus) and polling it after a 202 (4.4
// rule 4). A transient answer (429, 503, after the client's own retries) or
// no answer says nothing about the offer: polling goes on. An answer the
// template's declared expectStatus rules out (a 404 for an offer still
// processing) contradicts the profile's own declaration: polling stops
// there and the polling check judges it (trading.offerStatus.expectStatus).
import type { CheckContext } from '../../src/check/context.ts';
import type { HttpClient, HttpResponse } from '../../src/http/client.ts';
import { TransportError } from '../../src/http/client.ts';
import { isTransientStatus, TransientAnswerError } from '../../src/http/transient.ts';
import type { OperationTemplate } from '../../src/config/sections/operation.ts';
import type { TradingProfile } from '../../src/config/sections/trading.ts';
import { callOperation, type OperationResult } from '../../src/operations.ts';
import { pollUntilTerminal, type PollObservation, type PollOutcome } from '../../src/polling.ts';
import { SetupError, shortId, type Bearer, type CreatedOffer } from './common.ts';
import { clockOrAssumed, clockShownIn, type ShownClock } from './clock.ts';

export interface StatusObservation extends PollObservation {
  /** True when the status operation answered as its template expects. */
  read: boolean;
  /** The HTTP status of the answer; undefined when none came. */
  httpStatus?: number;
  /** The exchange of the answer, for evidence. */
  exchangeId?: number;
  /** The answer is neither transient nor a code the template's declared expectStatus allows. */
  undeclared?: boolean;
  status?: string;
  externalTransactionId?: unknown;
  tradeId?: unknown;
}

export interface StatusSettings {
  offerStatus: OperationTemplate;
  terminalStatuses: readonly string[];
}

/** The status operation and terminal statuses, or SKIP naming the key. */
export function statusSettings(section: TradingProfile, check: CheckContext): { offerStatus: OperationTemplate; terminalStatuses: string[] } {
  const profile = { trading: section }; // the keys a SKIP names are the profile's
  const offerStatus = check.need(profile, 'trading.offerStatus', 'no operation to read an offer status (not shown by the spec)');
  check.need(profile, 'trading.offerStatus.extract.status', 'trading.offerStatus does not extract the status');
  return { offerStatus, terminalStatuses: check.need(profile, 'trading.terminalStatuses', 'no list of terminal offer statuses') };
}

/** A code the template declares it never answers: only a declared expectStatus can say so, and a transient code never does. */
export function contradictsDeclaredStatus(template: OperationTemplate, status: number): boolean {
  return template.expectStatus !== undefined && !template.expectStatus.includes(status) && !isTransientStatus(status);
}

function observationOf(read: OperationResult, settings: StatusSettings): StatusObservation {
  const status = read.extracted.status;
  const shown = typeof status === 'string' ? status : JSON.stringify(status);
  const httpStatus = read.response.status;
  const undeclared = !read.ok && contradictsDeclaredStatus(settings.offerStatus, httpStatus);
  return {
    read: read.ok,
    httpStatus,
    exchangeId: read.response.exchangeId,
    ...(undeclared ? { undeclared, final: true } : {}),
    status: typeof status === 'string' ? status : undefined,
    externalTransactionId: read.extracted.externalTransactionId,
    tradeId: read.extracted.tradeId,
    terminal: read.ok && typeof status === 'string' && settings.terminalStatuses.includes(status),
    summary: read.ok ? `status ${shown} (HTTP ${httpStatus})` : `HTTP ${httpStatus}, status not read${undeclared ? ' (a code trading.offerStatus.expectStatus does not declare)' : ''}`,
  };
}

/** Reads the offer status once; no answer, or only transient ones, is a non-terminal observation, so polling goes on. */
export async function readStatus(http: HttpClient, settings: StatusSettings, bearer: Bearer, offer: CreatedOffer, label: string): Promise<StatusObservation> {
  try {
    const token = bearer;
    const read = await callOperation(http, settings.offerStatus, { offerId: offer.offerId, userId: offer.userId }, { bearer: token, label });
    return observationOf(read, settings);
  } catch (error) {
    if (error instanceof TransientAnswerError) return { read: false, terminal: false, summary: 'only transient answers (429/503), status not read' };
    if (!(error instanceof TransportError)) throw error;
    return { read: false, terminal: false, summary: `no response: ${error.kind}` };
  }
}

/** Reads the offer status once where the check needs its answer: an unreadable status is a set-up failure (ERROR). */
export async function readStatusOnce(http: HttpClient, offerStatus: OperationTemplate, bearer: Bearer, offer: CreatedOffer, label: string): Promise<StatusObservation> {
  const observed = await readStatus(http, { offerStatus, terminalStatuses: [] }, bearer, offer, label);
  if (!observed.read) throw new SetupError(`the offer status of ${shortId(offer.offerId)} could not be read (trading.offerStatus): ${observed.summary}`);
  return observed;
}

export type OfferPolling = PollOutcome<StatusObservation> & { deadlineMs: number };

/**
 * Polls the offer status with backoff until a terminal status, an answer the
 * declaration rules out (outcome.stopped, last.undeclared), or
 * trading.pollDeadlineMs; each poll is a timeline event. A status that could
 * not be read at the deadline says nothing about the offer: SetupError.
 */
export async function pollOffer(check: CheckContext, http: HttpClient, section: TradingProfile, bearer: Bearer, offer: CreatedOffer): Promise<OfferPolling> {
  const settings = statusSettings(section, check);
  const deadlineMs = check.need({ trading: section }, 'trading.pollDeadlineMs', 'no deadline for polling the offer status after a 202');
  const outcome = await pollUntilTerminal(
    (n) => readStatus(http, settings, bearer, offer, `offer status, poll ${n}`),
    { deadlineMs, initialIntervalMs: section.pollIntervalMs, maxIntervalMs: section.pollMaxIntervalMs },
    check,
  );
  if (!outcome.reached && !outcome.stopped && (!outcome.last?.read || outcome.last.status === undefined)) {
    throw new SetupError(`the offer status of ${shortId(offer.offerId)} could not be read (trading.offerStatus): ${outcome.last?.summary ?? 'no poll answered'}`);
  }
  return { ...outcome, deadlineMs };
}

/** The profile key that makes a repeated execution observable behind a 202. */
export const TRADE_ID_KEY = 'trading.offerStatus.extract.tradeId';

export const showsTradeId = (section: TradingProfile): boolean => Boolean(section.offerStatus?.extract?.tradeId);

/** The trade id a 200 answer carries (2.4 trade_id); a 202 body is not shown, so it carries none we can rely on. */
export function tradeIdIn(res: HttpResponse): string | undefined {
  if (res.status !== 200) return undefined;
  const id = (res.json as { data?: { trade_id?: unknown } } | undefined)?.data?.trade_id;
  return typeof id === 'string' && id ? id : undefined;
}

/** Where the profile can show it: the trade id the offer status reports now (trading.offerStatus.extract.tradeId). */
export async function tradeIdInStatus(http: HttpClient, section: TradingProfile, bearer: Bearer, offer: CreatedOffer, label: string): Promise<string | undefined> {
  if (!section.offerStatus?.extract?.tradeId) return undefined;
  const observed = await readStatusOnce(http, section.offerStatus, bearer, offer, label);
  return typeof observed.tradeId === 'string' && observed.tradeId ? observed.tradeId : undefined;
}

/**
 * Polls an offer whose accept answered 202 to its terminal status, when the
 * profile says how; else leaves it. Whether the status operation answered as
 * declared is trading.accepted-202-reaches-terminal-status's concern: here it is noted.
 */
export async function settleIfPossible(check: CheckContext, http: HttpClient, section: TradingProfile, bearer: Bearer, offer: CreatedOffer): Promise<void> {
  if (!section.offerStatus?.extract?.status || !section.terminalStatuses?.length || !section.pollDeadlineMs) return;
  const outcome = await pollOffer(check, http, section, bearer, offer);
  if (outcome.stopped) return check.note(`the offer status of ${shortId(offer.offerId)} answered ${outcome.last?.summary ?? 'nothing readable'}; polling stopped`);
  if (!outcome.reached) check.note(`offer ${shortId(offer.offerId)} was still processing at the deadline (${outcome.last?.summary ?? 'no status'})`);
}

/** The keys an offer answered 202 is followed to its end by, for a reason that names them. */
export const FOLLOW_KEYS = 'trading.offerStatus (extracting status and tradeId), trading.terminalStatuses and trading.pollDeadlineMs';

const canFollow = (section: TradingProfile): boolean =>
  Boolean(section.offerStatus?.extract?.status && showsTradeId(section) && section.terminalStatuses?.length && section.pollDeadlineMs);

/** Where an offer whose accept answered 202 ended, as far as the profile lets the suite read it. */
export type OfferEnd =
  /** The profile does not say how to read it to its end and tell an execution (FOLLOW_KEYS). */
  | { kind: 'unfollowed' }
  /** Its status shows the trade its execution made. */
  | { kind: 'executed'; tradeId: string; polling: OfferPolling }
  /** A terminal status and no trade: processing ended without an execution. */
  | { kind: 'ended'; status: string; polling: OfferPolling }
  /** Polling ended without showing where: why. */
  | { kind: 'unseen'; why: string; polling: OfferPolling };

const shownId = (value: unknown): string | undefined => ((typeof value === 'string' && value) || typeof value === 'number' ? String(value) : undefined);

/**
 * Follows an offer whose accept answered 202 to where it ends (4.4 rule 4):
 * a 202 says the request was received and is still processing, not whether
 * the offer will execute. Only the trade id its status shows tells an
 * execution (the profile's tradeId: "the id of the trade the offer's
 * execution made, null or absent before"); no key says which terminal status
 * means executed, so without tradeId the offer is not followed at all.
 */
export async function followToEnd(check: CheckContext, http: HttpClient, section: TradingProfile, bearer: Bearer, offer: CreatedOffer): Promise<OfferEnd> {
  if (!canFollow(section)) return { kind: 'unfollowed' };
  const polling = await pollOffer(check, http, section, bearer, offer);
  const last = polling.last!;
  const tradeId = last.read ? shownId(last.tradeId) : undefined;
  if (tradeId) return { kind: 'executed', tradeId, polling };
  if (polling.stopped) {
    const why = `the offer-status operation answered ${last.httpStatus}, a code trading.offerStatus.expectStatus rules out (see trading.accepted-202-reaches-terminal-status)`;
    return { kind: 'unseen', why, polling };
  }
  if (!polling.reached) return { kind: 'unseen', why: `it was still ${last.summary} at the declared ${polling.deadlineMs} ms poll deadline (trading.pollDeadlineMs)`, polling };
  return { kind: 'ended', status: last.status!, polling };
}

/** What settleIfPossible may wait: the declared poll deadline, when polling is possible at all. */
export function settleWaitMs(section: TradingProfile | undefined): number {
  return section?.offerStatus && section.terminalStatuses?.length ? (section.pollDeadlineMs ?? 0) : 0;
}

/**
 * The clock an offer's answers show (clock.ts): the timestamps of its create
 * answer, else of its status (when the profile says how to read it), else
 * whole seconds assumed.
 */
export async function offerClock(http: HttpClient, section: TradingProfile, bearer: Bearer, offer: CreatedOffer): Promise<ShownClock> {
  const shown = clockShownIn(offer.response.json);
  if (shown || !section.offerStatus) return clockOrAssumed(shown);
  try {
    const read = await callOperation(http, section.offerStatus, { offerId: offer.offerId, userId: offer.userId }, { bearer: bearer, label: 'offer status, for the clock its timestamps show' });
    return clockOrAssumed(read.ok ? clockShownIn(read.response.json) : undefined);
  } catch (error) {
    if (error instanceof TransportError || error instanceof TransientAnswerError) return clockOrAssumed(undefined);
    throw error;
  }
}
