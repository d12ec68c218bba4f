// Waivers as results.json carries them: a known failure accepted for a limited
// time (the file a user writes is schemas/waivers.schema.json, read by
// src/results/waivers-file.ts; src/results/waivers.ts applies it to a run).
// schemas/results.schema.json publishes these shapes under "waivers" and a
// check's "waived".
import type { Verdict } from '../check/verdict-names.ts';

/** The verdicts a waiver may expect: the ones that say something is wrong. */
export type WaivableVerdict = 'FAIL' | 'ERROR' | 'WARN';
export const WAIVABLE_VERDICTS: readonly WaivableVerdict[] = ['FAIL', 'ERROR', 'WARN'];

/** What a waiver selects: one check by id, or every check of one requirement. */
export interface WaiverSelector {
  kind: 'check' | 'requirement';
  id: string;
}

export interface Waiver {
  /** Where the waiver stands in its file, as a JSON Pointer ("/waivers/2"), so a report line leads back to it. */
  pointer: string;
  selector: WaiverSelector;
  reason: string;
  owner: string;
  /** The http(s) address of the ticket that tracks the fix. */
  tracking: string;
  /** The last UTC day the waiver applies (YYYY-MM-DD): from 00:00 UTC of the next day it is expired. */
  expires: string;
  expect: {
    verdict: WaivableVerdict;
    /** Text that must occur in the check's reason. */
    reason?: string;
  };
}

/** A waiver file as loaded: where it came from, its bytes' SHA-256 (for manifest.json) and its waivers. */
export interface WaiverFile {
  /** The path as given (--waivers). */
  file: string;
  /** Hex SHA-256 of the file's bytes. */
  sha256: string;
  waivers: Waiver[];
}

/**
 * applied: it waived at least one check. expired: its day has passed, so it
 * waived nothing (its checks keep their verdict). stale: checks it selects
 * ran but none gave the expected failure (fixed, or failing otherwise).
 * unmatched: no check of the run is selected by it.
 */
export type WaiverStatus = 'applied' | 'expired' | 'stale' | 'unmatched';

/** A check a waiver selected, with the verdict the check itself gave (before any waiver). */
export interface WaiverCheckRef {
  target: string;
  id: string;
  verdict: Verdict;
}

export interface WaiverOutcome {
  waiver: Waiver;
  status: WaiverStatus;
  /**
   * applied: the checks it waived. expired: the checks it would have waived,
   * which keep their verdict. stale: the checks it selects, with the verdict
   * they gave instead. unmatched: none.
   */
  checks: WaiverCheckRef[];
  /** One sentence on what the status means for this waiver and what to do. */
  note: string;
}

/** results.json "waivers": present when the run was given a waiver file. */
export interface WaiversSection {
  file: string;
  sha256: string;
  /** --strict-waivers: a stale or unmatched waiver makes the run INCOMPLETE (src/results/verdict.ts). */
  strict: boolean;
  /** The instant expiry was judged at. */
  evaluatedAt: string;
  outcomes: WaiverOutcome[];
}

/** On a WAIVED check: the verdict it gave and the waiver that expected it. Its reason stays the check's own. */
export interface WaivedBy {
  verdict: WaivableVerdict;
  waiver: Waiver;
}
