// The JSON the console's own endpoints (/console/api/*) answer with, shared
// by the server side (app/serve/console/) and the browser app (console/),
// which imports this module for its types only. Shapes the console renders
// and nothing more: the services may return richer objects (a DoctorRow of
// app/doctor/model.ts, a BaselineDiff of reports/baseline.ts), which these
// are structural subsets of.
import type { ImplementationRecord, ImplementationSummary, RunRecord, RunEvent } from '../contract.ts';
import type { RunVerdict } from '../../../src/results/model.ts';
import type { Verdict } from '../../../src/check/verdict-names.ts';
import type { ShareInfo } from '../shares.ts';
import type { ReviewItem } from '../reviews.ts';

export type { ImplementationRecord, ImplementationSummary, RunRecord, RunEvent, RunVerdict, Verdict, ShareInfo, ReviewItem };

/** A new share link (POST /api/runs/:id/share): its address, shown this once, and the link as it is listed. */
export interface ShareAnswer {
  url: string;
  share: ShareInfo;
}

/** One row of `ptas doctor`'s table (app/doctor/model.ts DoctorRow). */
export interface DoctorRowView {
  operation: string;
  key: string;
  request?: string;
  answer?: string;
  outcome: 'OK' | 'PROBLEM' | 'SKIPPED';
  problem?: string;
  fix?: string;
}

/** What "Check" shows: the doctor's rows, the keys of its PROBLEM rows, or why it could not run at all. */
export interface DoctorSummary {
  rows: DoctorRowView[];
  brokenKeys: string[];
  /** The keys a certifiable run still needs, each with the required checks that SKIP without it (any one of `keys` meets it). */
  certificationNeeds?: { keys: string[]; checks: string[] }[];
  /** Set when the doctor could not try anything (the profile does not parse or validate, no base URL…). */
  error?: string;
}

/** One check whose verdict differs between two runs (reports/baseline.ts CheckChange). */
export interface CheckChangeView {
  id: string;
  target: string;
  title: string;
  before?: Verdict;
  after?: Verdict;
  reason?: string;
}

/** "Compare with…": the baseline diff of `ptas report --baseline` (reports/baseline.ts BaselineDiff), the older run as baseline. */
export interface RunComparison {
  verdict: { before: RunVerdict; after: RunVerdict };
  newlyFailing: CheckChangeView[];
  newlyPassing: CheckChangeView[];
  otherChanges: CheckChangeView[];
  regressions: number;
  notes: string[];
}

/** POST /console/api/implementations and PUT /console/api/implementations/:id. */
export interface ImplementationInput {
  name: string;
  profileText: string;
}

/** POST /console/api/implementations/:id/runs: the start-run form. */
export interface StartRunInput {
  /** Spec areas to run (src/check/model.ts AREAS): the run's grep becomes @area:A|@area:B. Either areas or grep, not both. */
  areas?: string[];
  /** A Playwright grep (a requirement tag, @check:…, @area:…). */
  grep?: string;
  load?: boolean;
  nonce?: string;
  /** Values for the profile's env:NAME references, for this run only: never stored, never shown again. */
  secrets?: Record<string, string>;
  /** The client secret of a profile that leaves it out, for this run only: never stored, never shown again. */
  clientSecret?: string;
}

/** POST /console/api/runs/:id/tickets: a one-use URL of the run's report or bundle. */
export interface TicketInput {
  kind: 'report' | 'bundle';
}

export interface TicketAnswer {
  /** "/console/runs/ID/report?ticket=…": good once, within a minute, in this session. */
  url: string;
}

/** GET /console/api/session. */
export interface SessionView {
  /** The name of the token the session signed in with. */
  signedInAs: string;
  /** Its role (app/serve/roles.ts): what the console lets the session do. */
  role: 'viewer' | 'certifier' | 'admin';
}

/** Every JSON error the console's endpoints answer with. */
export interface ApiError {
  error: string;
}
