// Shared steps of the trade-offer checks (spec 4.4, 3.1). Creating an offer
// and reading its status are not shown by the spec: they are called as the
// profile describes them (trading.createOffer, trading.offerStatus).
import type { CheckContext } from '../../src/check/context.ts';
import type { CheckFixtures } from '../../src/check/define.ts';
import type { HttpClient, HttpResponse } from '../../src/http/client.ts';
import { TransportError } from '../../src/http/client.ts';
import type { ResolvedProfile } from '../../src/config/profile.ts';
import type { OperationTemplate } from '../../src/config/sections/operation.ts';
import type { TradingProfile } from '../../src/config/sections/trading.ts';
import { retryAfterMs } from '../../src/auth/tokens.ts';
import { callOperation, type Placeholders } from '../../src/operations.ts';
import { pollUntilTerminal, type PollObservation, type PollOutcome } from '../../src/polling.ts';

export const USER_HEADER = 'svc-user-id';
/** 200 with the trade, or 202 while processing (3.1). */
export const ACCEPTED = [200, 202] as const;
/** Codes 4.4 documents for an offer that is no longer acceptable: 409 conflict, 410 record gone. */
export const NOT_ACCEPTABLE = [409, 410] as const;

export const acceptPath = (offerId: string) => `/v1/offers/${encodeURIComponent(offerId)}/accept`;

/** "1f2e3d4c…", so reasons stay one line. */
export const shortId = (id: string) => (id.length > 8 ? `${id.slice(0, 8)}…` : id);
/** Wall-clock time of an exchange, HH:MM:SS (UTC). */
export const clockOf = (res: HttpResponse) => res.startedAt.toISOString().slice(11, 19);
export const isAccepted = (status: number) => status === 200 || status === 202;

/** The trading section with the create-offer operation every check needs, or SKIP naming the key. */
export function tradingSection(profile: ResolvedProfile, check: CheckContext): TradingProfile & { createOffer: OperationTemplate } {
  const section = profile.trading;
  if (!section?.createOffer) return check.skip('no operation to create a trade offer (not shown by the spec)', 'trading.createOffer');
  if (!section.createOffer.extract?.offerId) return check.skip('trading.createOffer does not extract the offer id', 'trading.createOffer.extract.offerId');
  return section as TradingProfile & { createOffer: OperationTemplate };
}

/** Fails the set-up, not the implementation: the check could not reach the state it tests (verdict ERROR). */
class SetupError extends Error {
  override name = 'SetupError';
}

/**
 * A user for this check alone (trading.createUser), so parallel checks never
 * supersede each other's offers; else the shared trading.userId.
 */
export async function checkUser(check: CheckContext, http: HttpClient, section: TradingProfile, bearer: string): Promise<string> {
  if (section.createUser) {
    const created = await callOperation(http, section.createUser, {}, { bearer, label: 'create a user for this check (trading.createUser)' });
    const userId = created.extracted.userId;
    if (!created.ok || typeof userId !== 'string' || !userId) {
      throw new SetupError(`trading.createUser answered ${created.response.status} without a userId to extract`);
    }
    return userId;
  }
  if (!section.userId) return check.skip('no user who can receive offers', 'trading.userId');
  check.note('ran on the shared trading.userId (no trading.createUser): checks running in parallel can supersede each other\'s offers');
  return section.userId;
}

export interface CreatedOffer {
  offerId: string;
  userId: string;
  response: HttpResponse;
}

export async function createOffer(
  http: HttpClient,
  section: TradingProfile & { createOffer: OperationTemplate },
  bearer: string,
  values: { userId: string; processingMs?: number; validitySeconds?: number },
  label = 'create a trade offer (trading.createOffer)',
): Promise<CreatedOffer> {
  const placeholders: Placeholders = {
    userId: values.userId,
    processingMs: values.processingMs,
    validitySeconds: values.validitySeconds ?? section.validitySeconds,
  };
  const created = await callOperation(http, section.createOffer, placeholders, { bearer, label });
  const offerId = created.extracted.offerId;
  if (!created.ok || (typeof offerId !== 'string' && typeof offerId !== 'number')) {
    throw new SetupError(`creating an offer for user ${values.userId} answered ${created.response.status} without an offerId to extract`);
  }
  return { offerId: String(offerId), userId: values.userId, response: created.response };
}

/**
 * The common start of an accept check: the trading section, an access token,
 * a user of the check's own and a fresh offer for it that processes within
 * the predefined time.
 */
export async function freshOffer({ check, http, profile, tokens }: Pick<CheckFixtures, 'check' | 'http' | 'profile' | 'tokens'>) {
  const section = tradingSection(profile, check);
  const bearer = await tokens.get();
  const userId = await checkUser(check, http, section, bearer);
  const offer = await createOffer(http, section, bearer, { userId, processingMs: section.fastProcessingMs });
  return { section, bearer, userId, offer };
}

export interface AcceptOptions {
  bearer?: string;
  /** svc-user-id; undefined sends none. */
  userId?: string;
  externalTransactionId?: string;
  label: string;
}

/** One accept, exactly as asked (no retry): for races and rate-limit-sensitive checks. */
export function acceptOnce(http: HttpClient, offerId: string, options: AcceptOptions): Promise<HttpResponse> {
  return http.patch(acceptPath(offerId), {
    headers: options.userId === undefined ? {} : { [USER_HEADER]: options.userId },
    query: { external_transaction_id: options.externalTransactionId },
    bearer: options.bearer,
    label: options.label,
  });
}

/**
 * An accept that waits out a 429 (bounded), so the suite's own pace is not
 * taken for the behaviour under test. A 429 must not execute the offer
 * (OFFER-RATE-LIMITED-NOT-EXECUTED), so trying again is sound.
 */
export async function accept(check: CheckContext, http: HttpClient, offerId: string, options: AcceptOptions, attempts = 3): Promise<HttpResponse> {
  for (let attempt = 1; ; attempt++) {
    const res = await acceptOnce(http, offerId, options);
    if (res.status !== 429 || attempt >= attempts) return res;
    const wait = retryAfterMs(res);
    check.event('accept rate limited', `429 on ${options.label}; trying again in ${wait} ms`);
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

export interface StatusObservation extends PollObservation {
  status?: string;
  externalTransactionId?: unknown;
}

/** The status operation and terminal statuses, or SKIP naming the key. */
export function statusSettings(section: TradingProfile, check: CheckContext): { offerStatus: OperationTemplate; terminalStatuses: string[] } {
  if (!section.offerStatus) return check.skip('no operation to read an offer status (not shown by the spec)', 'trading.offerStatus');
  if (!section.offerStatus.extract?.status) return check.skip('trading.offerStatus does not extract the status', 'trading.offerStatus.extract.status');
  if (!section.terminalStatuses?.length) return check.skip('no list of terminal offer statuses', 'trading.terminalStatuses');
  return { offerStatus: section.offerStatus, terminalStatuses: section.terminalStatuses };
}

/** Reads the offer status once; a transport failure is a non-terminal observation, so polling goes on. */
export async function readStatus(
  http: HttpClient,
  settings: { offerStatus: OperationTemplate; terminalStatuses: string[] },
  bearer: string,
  offer: CreatedOffer,
  label: string,
): Promise<StatusObservation> {
  try {
    const read = await callOperation(http, settings.offerStatus, { offerId: offer.offerId, userId: offer.userId }, { bearer, label });
    const status = read.extracted.status;
    const shown = typeof status === 'string' ? status : JSON.stringify(status);
    return {
      status: typeof status === 'string' ? status : undefined,
      externalTransactionId: read.extracted.externalTransactionId,
      terminal: read.ok && typeof status === 'string' && settings.terminalStatuses.includes(status),
      summary: read.ok ? `status ${shown} (HTTP ${read.response.status})` : `HTTP ${read.response.status}, status not read`,
    };
  } catch (error) {
    if (!(error instanceof TransportError)) throw error;
    return { terminal: false, summary: `no response: ${error.code}` };
  }
}

/** Polls the offer status with backoff until a terminal status or trading.pollDeadlineMs; each poll is a timeline event. */
export async function pollOffer(
  check: CheckContext,
  http: HttpClient,
  section: TradingProfile,
  bearer: string,
  offer: CreatedOffer,
): Promise<PollOutcome<StatusObservation> & { deadlineMs: number }> {
  const settings = statusSettings(section, check);
  if (!section.pollDeadlineMs) return check.skip('no deadline for polling the offer status after a 202', 'trading.pollDeadlineMs');
  const deadlineMs = section.pollDeadlineMs;
  const outcome = await pollUntilTerminal(
    (n) => readStatus(http, settings, bearer, offer, `offer status, poll ${n}`),
    { deadlineMs, initialIntervalMs: section.pollIntervalMs, maxIntervalMs: section.pollMaxIntervalMs },
    check,
  );
  return { ...outcome, deadlineMs };
}
