// The CLI's stable exit codes (documented in --help and the README).
export const EXIT = {
  CONFORMANT: 0,
  NOT_CONFORMANT: 1,
  USAGE: 2,
  UNREACHABLE: 3,
  /** A bug or crash in ptas itself, or a run that produced no verdict. */
  INTERNAL: 4,
  /** The run was cut short (SIGINT): a partial report marked INCOMPLETE was written. */
  INTERRUPTED: 130,
} as const;
