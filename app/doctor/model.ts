// What `ptas doctor` reports: one row per operation it tried (or could not
// try), and the shared state its steps hand on to one another (the access
// token, the trading user, the offers accepted). No conformance verdicts: a
// row says whether the profile's description of an operation works, and if
// not, which key to change and how.
import type { HttpClient } from '../../src/http/client.ts';
import type { ResolvedProfile } from '../../src/config/profile.ts';
import type { ExchangeLog } from './exchanges.ts';
import type { Bearer } from '../../src/http/outgoing.ts';

export type RowOutcome = 'OK' | 'PROBLEM' | 'SKIPPED';

export interface DoctorRow {
  /** What was tried, e.g. "accept offer (recipe slow)". */
  operation: string;
  /** The profile key the row is about; a PROBLEM names it as broken. */
  key: string;
  /** The request sent, method and path filled ("PATCH /v1/offers/3a2b…/accept"); absent when nothing was sent. */
  request?: string;
  /** The answer in short: status and what was read from it. */
  answer?: string;
  outcome: RowOutcome;
  /** PROBLEM: what is wrong. */
  problem?: string;
  /** PROBLEM: what to change, naming the key. */
  fix?: string;
}

export function okRow(operation: string, key: string, request: string | undefined, answer: string): DoctorRow {
  return { operation, key, request, answer, outcome: 'OK' };
}

export function problemRow(
  operation: string,
  key: string,
  details: { request?: string; answer?: string; problem: string; fix: string },
): DoctorRow {
  return { operation, key, outcome: 'PROBLEM', ...details };
}

/** A step the profile does not configure, or one that cannot run because an earlier step failed. */
export function skippedRow(operation: string, key: string, why = `not configured (${key})`): DoctorRow {
  return { operation, key, answer: why, outcome: 'SKIPPED' };
}

/** An offer whose accept answered 200 or 202, for the status step. */
export interface AcceptedOffer {
  recipe: string;
  offerId: string;
  userId: string;
  acceptStatus: 200 | 202;
}

export interface DoctorContext {
  profile: ResolvedProfile;
  http: HttpClient;
  exchanges: ExchangeLog;
  /** Prints the row at once (progress) and keeps it for the summary. */
  report(row: DoctorRow): void;
  /** Set by the token step (the suite's own token, renewed as it runs out); the steps that need it skip without it. */
  bearer?: Bearer;
  /** The user offers are made for: trading.createUser's, else trading.userId. */
  tradingUserId?: string;
}

/** The profile keys of every PROBLEM row, each once, in order. */
export function brokenKeys(rows: readonly DoctorRow[]): string[] {
  return [...new Set(rows.filter((r) => r.outcome === 'PROBLEM').map((r) => r.key))];
}
