// The JSON the console's pages read from the API for CI (/api/*) and from
// the console's session endpoint (/console/api/session), for the browser app
// (console/), which imports this module for its types only. Shapes the
// console renders and nothing more: the API answers richer objects (a
// DoctorRow of app/doctor/model.ts, a BaselineDiff of reports/baseline.ts),
// which these are structural subsets of.
import type { ImplementationRecord, ImplementationSummary, RunRecord, RunEvent } from '../contract.ts';
import type { RunVerdict } from '../../../src/results/model.ts';
import type { Verdict } from '../../../src/check/verdict-names.ts';
import type { ShareInfo } from '../shares.ts';
import type { ReviewItem } from '../reviews.ts';
import type { Observation, UnstableCheck } from '../../../src/results/instability.ts';
import type { ChangedCheck, JudgedSide, Newness } from '../../../src/results/rejudge-preview.ts';
import type { RejudgeOverview, StoredRunPreview } from '../rejudge-preview.ts';

export type { ImplementationRecord, ImplementationSummary, RunRecord, RunEvent, RunVerdict, Verdict, ShareInfo, ReviewItem, Observation, UnstableCheck };
/** GET /api/rejudge-preview: the stored runs judged again by the installed suite. */
export type { RejudgeOverview, StoredRunPreview, ChangedCheck, JudgedSide, Newness };

/** GET /api/implementations/ID/unstable-checks: the checks whose verdict differs between its runs of one suite version and profile. */
export interface UnstableChecksAnswer {
  checks: UnstableCheck[];
}

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

/** What "Check" shows (POST /api/doctor, app/serve/doctor.ts ProfileCheck): the doctor's rows, the keys of its PROBLEM rows, or why it could not run at all. */
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

/** POST /api/runs/:id/tickets {kind: report|bundle}: a one-use URL of the run's report or bundle. */
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
