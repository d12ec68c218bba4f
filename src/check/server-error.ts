// The one judgement of a 5xx answered to a request the spec says must be
// refused (README "Verdicts", "A server error where a refusal was due").
// The answer is wrong in kind — RFC 9110 15.6: a 5xx says the server erred,
// where the client had (a 4xx, 15.5) — but what a refusal rule forbids is an
// effect: a token issued, a trade executed, an address stored. So, in order:
//
//   1. the effect contradicts the rule: FAIL on the rule's sentence (the
//      effect's), whatever the status;
//   2. a gateway answer the row does not list (502, 504, 503 where
//      unlisted: src/spec/answer-class.ts) says the path to the operation
//      failed, not what the operation does: ERROR;
//   3. where the spec names the status for the condition (8: 429 for the
//      rate limit, 413 for the size limit), another status FAILs on that
//      sentence;
//   4. otherwise 429 and 503 (section 7 lists them without a condition)
//      say "not now": ERROR;
//   5. a 5xx the operation's section 7 row does not list (500 on user
//      details) FAILs on the row;
//   6. a 5xx the row lists, with nothing executed: WARN on RFC 9110 15.6 —
//      and, where what it did cannot be read, a WARN that says so, resting
//      on the status alone.
//
// Checks read the effect where they can (a token in the answer, a refresh
// token spent, a trade the offer status shows); this file only weighs it.
import { answerClass, TRANSIENT_STATUSES } from '../spec/answer-class.ts';
import { OPERATION_NAMES, SECTION_7_CODES, SECTION_7_SENTENCE, type SpecOperation } from '../spec/status-codes.ts';

/** What a request that must be refused did, as far as the check could read it. */
export type Effect =
  /** It did what the rule forbids: `what` completes "it …", `on` is the catalogue sentence the effect contradicts. */
  | { kind: 'executed'; what: string; on: string }
  /** Nothing executed: `how` says what showed it. */
  | { kind: 'none'; how: string }
  /** What it did cannot be read: `why` says what is missing. */
  | { kind: 'unknown'; why: string };

export const executed = (what: string, on: string): Effect => ({ kind: 'executed', what, on });
export const nothingExecuted = (how: string): Effect => ({ kind: 'none', how });
export const effectUnknown = (why: string): Effect => ({ kind: 'unknown', why });

/** What a GET did, whatever its answer: nothing (RFC 9110 9.2.1, a safe method). */
export const GET_EXECUTES_NOTHING: Effect = nothingExecuted('a GET changes nothing: RFC 9110 9.2.1, a safe method');

/** RFC 9110 15.6, the class section 7's "500 (server error)" names: the sentence a WARN for a listed 5xx rests on. */
export const SERVER_ERROR_CLASS = 'RFC9110-15.6';

export interface ServerErrorCase {
  status: number;
  /** The operation whose section 7 row applies; undefined for an operation the spec shows no codes for (one the profile names). */
  operation?: SpecOperation;
  /** What the request did, as the check read it. */
  effect: Effect;
  /** The status the spec names for the condition (8), and the catalogue sentence that names it. */
  named?: { status: number; on: string };
}

export type ServerErrorJudgement =
  | { level: 'FAIL'; why: string; on: string }
  | { level: 'WARN'; why: string; on: typeof SERVER_ERROR_CLASS }
  | { level: 'ERROR'; why: string };

const listedBy = (operation: SpecOperation | undefined, status: number): boolean =>
  operation !== undefined && (SECTION_7_CODES[operation] as readonly number[]).includes(status);

/** A gateway answer the row does not list (502, 504, an unlisted 503): the path to the operation failed (RFC 9110 15.6.3-15.6.5), not the operation (src/spec/answer-class.ts). */
export function isGatewayAnswer(status: number, operation?: SpecOperation): boolean {
  return answerClass(operation, status) === 'gateway';
}

/** The judgement of a server error (or, with `named`, any status but the named one) answered where a refusal was due. */
export function judgeServerError({ status, operation, effect, named }: ServerErrorCase): ServerErrorJudgement {
  if (effect.kind === 'executed') return { level: 'FAIL', why: `it ${effect.what}`, on: effect.on };
  if (isGatewayAnswer(status, operation)) return { level: 'ERROR', why: `${status} is a gateway's answer, which decides no rule` };
  if (named && status !== named.status) return { level: 'FAIL', why: `the spec names ${named.status} for this condition`, on: named.on };
  if (TRANSIENT_STATUSES.has(status)) return { level: 'ERROR', why: `${status} says "not now", which decides no rule` };
  if (operation === undefined) return warn(effect, 'the spec shows no status codes for this operation');
  if (!listedBy(operation, status)) {
    return { level: 'FAIL', why: `section 7 does not list ${status} for ${OPERATION_NAMES[operation]}`, on: SECTION_7_SENTENCE[operation] };
  }
  return warn(effect, `section 7 lists ${status} for ${OPERATION_NAMES[operation]}`);
}

function warn(effect: Exclude<Effect, { kind: 'executed' }>, row: string): ServerErrorJudgement {
  const done = effect.kind === 'none' ? `nothing executed (${effect.how})` : `whether anything executed cannot be read (${effect.why}), so this rests on the status alone`;
  return { level: 'WARN', why: `a server error where the client erred (RFC 9110 15.6); ${row}, and ${done}`, on: SERVER_ERROR_CLASS };
}
