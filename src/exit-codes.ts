// The CLI's stable exit codes (documented in --help and the README). Which
// error ends with which is src/errors.ts's ERROR_CODES.
export const EXIT = {
  CONFORMANT: 0,
  NOT_CONFORMANT: 1,
  USAGE: 2,
  UNREACHABLE: 3,
  /** A bug or crash in ptas itself. */
  INTERNAL: 4,
  /** No contradiction found, but some checks could not run (ERROR) or none ran: the verdict is INCOMPLETE. */
  INCOMPLETE: 5,
  /** No contradiction found except the known failures an unexpired waiver (--waivers) accepts: CONFORMANT WITH WAIVERS. */
  CONFORMANT_WITH_WAIVERS: 6,
  /**
   * `ptas load` only: a load profile crossed its thresholds (the code k6 ends
   * with then). Thresholds are the user's performance targets, not the
   * spec's: crossing one is no verdict on conformance.
   */
  THRESHOLDS_CROSSED: 99,
  /** The run was cut short (SIGINT): a partial report marked INCOMPLETE was written. */
  INTERRUPTED: 130,
} as const;
