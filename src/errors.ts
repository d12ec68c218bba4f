// One hierarchy for the errors that end a command or a check because of
// something outside ptas: the profile, a flag, the target, a file the user
// named. Each carries a stable code; the code decides the CLI's exit code
// (exitCodeOf, used by bin/connection.ts fail()), and an error may word its
// own ERROR reason when it ends a check (checkReason, used by
// runner/fixtures.ts outcomeOf). Anything else that reaches the CLI is a
// bug in ptas: exit 4 with the stack.
//
// Not here: CheckFailure and CheckSkip (src/check/context.ts) are how a check
// body states its verdict, not errors; JsoncSyntaxError and SignatureBaseError
// are caught where they arise and become a ConfigError or a verdict's reason.
import { EXIT } from './exit-codes.ts';

type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Every code, the exit code it maps to, and what it means. Classes above the core (app/, reports/, reference/, suites/) have theirs here too. */
export const ERROR_CODES = {
  config: {
    exit: EXIT.USAGE,
    meaning: 'The profile, a flag or the environment has a value ptas cannot use; the message names the key, the shape expected and an example (ConfigError, ModeError).',
  },
  unreachable: { exit: EXIT.UNREACHABLE, meaning: 'Nothing answers HTTP at the base URL: found by the preflight, before any check runs (UnreachableError).' },
  'init-refused': { exit: EXIT.USAGE, meaning: 'ptas init would overwrite an existing file and --force was not given (InitRefused).' },
  cancelled: { exit: EXIT.INTERRUPTED, meaning: "ptas init's questions ended (Ctrl-C, end of input) before every one was answered; nothing was written (QuestionsCancelled)." },
  'merge-refused': {
    exit: EXIT.USAGE,
    meaning: 'The directories given to ptas merge are not the intact, complete parts of one sharded run: a part is missing, given twice, tampered with, or from another run (MergeRefused).',
  },
  'load-merge-refused': {
    exit: EXIT.USAGE,
    meaning: 'The results given to ptas load merge are not the instances of one distributed load run: another scenario, target, plan or engine, or segments that overlap or leave a part of the run missing (LoadMergeRefused).',
  },
  'signing-key': { exit: EXIT.USAGE, meaning: 'The key named by --sign-key or --pubkey is missing, unreadable or not an Ed25519 key (SigningKeyError).' },
  'results-file': { exit: EXIT.USAGE, meaning: 'The results.json given to ptas report is missing, unreadable, not JSON or not a ptas results file (ResultsFileError).' },
  'serve-refused': {
    exit: EXIT.USAGE,
    meaning: "ptas serve refused a request or a change to its store: an id, body or profile it cannot use, a secret in the clear, a token name taken or unknown; the API answers it with its HTTP status and {error, message, details} (ServeError).",
  },
  'waivers-file': { exit: EXIT.USAGE, meaning: 'The waiver file given to --waivers is missing, unreadable, not JSON, or breaks schemas/waivers.schema.json; the message names the file, the JSON Pointer and the fix (WaiversFileError).' },
  // The codes below end one check (or one load probe) as ERROR, never a FAIL of the implementation. The check
  // runtime and the load stage catch them, so one that reaches the CLI escaped its check: a bug, exit 4 as any other.
  template: { exit: EXIT.INTERNAL, meaning: "A profile template names a {placeholder} the operation does not fill: the profile is wrong, not the implementation (TemplateError); or a path that, appended to the base URL, names another host (PathOutsideTarget)." },
  setup: { exit: EXIT.INTERNAL, meaning: 'A step the spec does not show, called as the profile describes it, did not bring the check to the state it tests (SetupError).' },
  'token-setup': { exit: EXIT.INTERNAL, meaning: 'The token endpoint did not issue the tokens a check needs to set itself up (TokenSetupError).' },
  'jwks-unavailable': { exit: EXIT.INTERNAL, meaning: 'The JWK Set could not be fetched or read the way the profile says (JwksUnavailable).' },
  transport: { exit: EXIT.INTERNAL, meaning: 'An exchange produced no complete response: refused, reset, timed out, TLS or DNS failure… (TransportError; its kind says which).' },
  'not-observed': {
    exit: EXIT.INTERNAL,
    meaning:
      "A request stayed transient (429; a gateway's 502, 503, 504) through every attempt of the retry budget, Retry-After honoured, or got a 502 or 504 to a method that is not sent twice: what the check needed was not observed (TransientAnswerError).",
  },
} as const satisfies Record<string, { exit: ExitCode; meaning: string }>;

export type PtasErrorCode = keyof typeof ERROR_CODES;

/** An error ptas expects: the message is for the user as it stands, and code says what kind of problem it is. */
export abstract class PtasError extends Error {
  abstract readonly code: PtasErrorCode;

  /** The ERROR reason of a check this error ended, when the error words its own; undefined: the runtime's generic one. */
  checkReason(): string | undefined {
    return undefined;
  }
}

/** The exit code the CLI ends with for this error. */
export function exitCodeOf(error: unknown): ExitCode {
  return error instanceof PtasError ? ERROR_CODES[error.code].exit : EXIT.INTERNAL;
}
