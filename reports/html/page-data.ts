// What index.html embeds for its script, shared by the writer
// (reports/html.ts) and the script (reports/html/client/): no Node and no DOM
// here. The results go in as JSON, except each check's exchanges, timeline and record
// (most of a report's bytes), which go in gzip-compressed: one JSON line per
// check, in the order of results.checks, base64-encoded in a data block the
// page expands (DecompressionStream) when a check's evidence is first opened
// or searched (reports/html/evidence-pack.ts writes it).
import type { CheckResult } from '../../src/check/model.ts';
import type { RunResults } from '../../src/results/model.ts';
import type { BaselineDiff } from '../baseline.ts';

/** <script type="application/json">: EmbeddedReportData. */
export const DATA_ELEMENT_ID = 'ptas-data';
/** <script type="application/gzip" data-encoding="base64">: the checks' evidence. */
export const EVIDENCE_ELEMENT_ID = 'ptas-evidence';

/** The part of a check that is compressed. */
export type CheckEvidence = Pick<CheckResult, 'evidence' | 'timeline' | 'record'>;

/** A check as the JSON carries it: everything but its evidence. */
export type PageCheck = Omit<CheckResult, keyof CheckEvidence>;

export interface PageResults extends Omit<RunResults, 'checks'> {
  checks: PageCheck[];
}

/** What the page's script reads from the embedded JSON. */
export interface EmbeddedReportData {
  results: PageResults;
  diff?: BaselineDiff;
}
