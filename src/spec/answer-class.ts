// Whose answer a status is, by the operation's section 7 row and section 8 —
// the one place the HTTP client's retries, the outcome rules,
// errors.error-bodies-are-json and the load probes ask (README "Verdicts":
// the base URL is the system under test):
//   - 'listed': a status the operation's row lists, or one section 8 names
//     for a limit (413, 429). The implementation's answer, a proxy's page
//     included, held to every sentence: its body to "All request and response
//     bodies are JSON".
//   - 'gateway': 502, 504, and 503 where the row does not list it — what a
//     gateway in front answers when the service behind it did not (RFC 9110
//     15.6.3 to 15.6.5). Transient: asked again, then ERROR; never judged,
//     its body included.
//   - 'unlisted': any other status: the implementation's answer outside its
//     row (a WARN for the code where the row ties none to the condition; its
//     body still held to section 1's JSON sentence).
import { SECTION_7_CODES, type SpecOperation } from './status-codes.ts';

/** Statuses a gateway gives for a service it could not get an answer from: 502 Bad Gateway, 503 Service Unavailable, 504 Gateway Timeout. */
export const GATEWAY_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

/** The statuses section 8 names for the limits it lists: 413 (request size), 429 (rate). */
export const LIMIT_STATUSES: ReadonlySet<number> = new Set([413, 429]);

/**
 * Answers that say the server did not handle the request (RFC 6585 4: 429;
 * RFC 9110 15.6.4: 503 "currently unable to handle the request"), so it may
 * be sent again whatever its method.
 */
export const NOT_HANDLED_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/** Answers that say "not now" rather than what the operation does: they decide no rule (README "Verdicts", rule 1). */
export const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([...NOT_HANDLED_STATUSES, ...GATEWAY_STATUSES]);

export type AnswerClass = 'listed' | 'gateway' | 'unlisted';

/** Whose answer `status` is on `operation` (undefined: an operation the spec does not specify, which has no row). */
export function answerClass(operation: SpecOperation | undefined, status: number): AnswerClass {
  const row = operation ? (SECTION_7_CODES[operation] as readonly number[]) : [];
  if (row.includes(status) || LIMIT_STATUSES.has(status)) return 'listed';
  if (GATEWAY_STATUSES.has(status)) return 'gateway';
  return 'unlisted';
}
