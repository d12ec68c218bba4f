// Transient answers: a 429 or 503 says "not now", not what the operation
// does (section 7 lists them without a condition; RFC 9110 15.6.4: the 503
// server "is currently unable to handle the request due to a temporary
// overload"), a 502 or 504 is a gateway's for a service it got no answer
// from (src/spec/answer-class.ts), and a transport failure says nothing at
// all. None may decide a rule, so the HTTP client asks again, honouring
// Retry-After, within a bounded budget; when the answer is still transient,
// or may not be asked again, the check could not observe what it needs
// (TransientAnswerError: ERROR "not observed").
import { PtasError } from '../errors.ts';
import { NOT_HANDLED_STATUSES, TRANSIENT_STATUSES } from '../spec/answer-class.ts';

export const TRANSIENT_RETRY = {
  /**
   * Attempts in all, the first included. Six: a service that refuses one
   * request in seven transiently, independently of the last (many clients
   * behind one gateway), fails four attempts in a row once in 2,400 requests —
   * seen in the self-test's conditions:all run (the token endpoint answered
   * 503, 429, 503, 429 to the refresh check, other checks' requests between its
   * attempts) — and six once in 120,000. With Retry-After: 1 they wait 5 s, well
   * within budgetMs.
   */
  attempts: 6,
  /** Wait before the next attempt when the answer names none; doubled at each attempt. */
  firstWaitMs: 500,
  /** Longest single wait, whatever Retry-After asks. */
  maxWaitMs: 5_000,
  /** Longest total wait for one request. */
  budgetMs: 12_000,
} as const;

export const isTransientStatus = (status: number): boolean => TRANSIENT_STATUSES.has(status);

/** The server says it did not handle the request (429, 503): nothing was executed. A gateway's 502 or 504 says no such thing. */
export const executedNothing = (status: number): boolean => NOT_HANDLED_STATUSES.has(status);

/**
 * Methods a client may send again after a transport failure or a gateway's
 * 502 or 504 without risking a second effect (RFC 9110 9.2.2, idempotent
 * methods): either may come after the service acted on the request.
 */
export const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** May a request answered `status` (a transient one) be sent again? A 429 or 503 whatever the method (the server did not handle it); a 502 or 504 only when the method is idempotent. */
export const mayAskAgain = (status: number, method: string): boolean => executedNothing(status) || IDEMPOTENT_METHODS.has(method.toUpperCase());

/**
 * Transport failures asked again (for an idempotent method): a connection
 * closed under the request, as a keep-alive race or a restarting instance
 * does. A timeout is not: the client already waited its whole time limit.
 */
export const RETRIED_TRANSPORT_FAILURES: ReadonlySet<string> = new Set(['CONNECTION_RESET']);

/** How long Retry-After (delta-seconds or HTTP-date, RFC 9110 10.2.3) asks to wait, bounded; the doubling fallback without one. */
export function transientWaitMs(retryAfter: string | undefined, attempt: number): number {
  const fallback = TRANSIENT_RETRY.firstWaitMs * 2 ** (attempt - 1);
  if (!retryAfter) return Math.min(fallback, TRANSIENT_RETRY.maxWaitMs);
  const seconds = Number(retryAfter);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(retryAfter) - Date.now();
  return Math.min(Math.max(Number.isFinite(ms) ? ms : fallback, 50), TRANSIENT_RETRY.maxWaitMs);
}

/** The request stayed transient through every attempt the budget allows: the check could not observe its answer. */
export class TransientAnswerError extends PtasError {
  readonly code = 'not-observed';
  constructor(
    message: string,
    readonly exchangeId: number,
  ) {
    super(message);
    this.name = 'TransientAnswerError';
  }

  override checkReason(): string {
    return `not observed: ${this.message}`;
  }
}
