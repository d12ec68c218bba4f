// Judgments of the answers user details v2 gives to journey parameters it
// must refuse (4.2 rules 1-5), to the codes of those refusals (7), and to
// input it may take leniently. A 5xx to any of them is not judged here but by
// the server-error rule (src/check/rules.ts), which the check applies itself.
import { answeredWith, defineJudgment } from '../../src/check/judgments.ts';
import { isSuccess } from '../../src/check/context.ts';
import { PARAMETER_ERROR_CODES } from './support.ts';

export interface RefusalInput {
  /** The violation sent, as messages name it. */
  what: string;
  status: number;
  exchange?: number;
  /**
   * The violation is a parameter given with an empty value: 4.2 shows no
   * format of its values, so a service may read it as given or as left out,
   * and a 2xx is for a human (REVIEW), as exploration reads it too
   * (explore/areas/users.ts readingsOf).
   */
  emptyValue?: boolean;
}

/** Why an empty value's acceptance is recorded, not judged. */
export const EMPTY_VALUE_OPEN = 'an empty value, which a service may read as given or as left out (4.2 shows no format)';

/**
 * A journey-rule violation must be refused: a 2xx FAILs on the rule, as does
 * an answer below 400 that refuses nothing. Which 4xx is the business of
 * users.parameter-errors-documented-code alone.
 */
export const journeyRefused = defineJudgment<RefusalInput>('users.journey-violation-refused', (input, says) => {
  const { what, status, exchange } = input;
  if (isSuccess(status) && input.emptyValue) return says.review(`${what} was accepted (${status}): ${EMPTY_VALUE_OPEN}`, { actual: status });
  if (isSuccess(status)) return says.fail(`${what} was accepted: ${status}`, { expected: '4xx (400/422)', actual: status, exchange }, { observed: answeredWith(status, exchange) });
  if (status < 400) says.fail(`${what}: expected a 4xx rejection, got ${status}`, { expected: '4xx (400/422)', actual: status });
});

export interface RefusalCodesInput {
  /** Each violation sent and the status it was answered with, in order. */
  answers: Array<{ what: string; status: number }>;
}

/** users.parameter-errors-documented-code: a refused violation is answered 400 or 422; an accepted one has no refusal code to judge. */
export const parameterErrorCodes = defineJudgment<RefusalCodesInput>('users.parameter-error-codes', (input, says) => {
  const other: string[] = [];
  for (const { what, status } of input.answers) {
    // Acceptance is the business of the rule's own check; here only the code of a refusal counts.
    if (isSuccess(status)) says.note(`${what} was accepted (${status}): no refusal code to judge`);
    else if (!(PARAMETER_ERROR_CODES as readonly number[]).includes(status)) other.push(`${what} → ${status}`);
    else says.note(`${what} → ${status}`);
  }
  if (other.length) says.fail(`journey-parameter violations answered with codes other than 400/422: ${other.join('; ')}`, { expected: PARAMETER_ERROR_CODES, actual: other });
});

/**
 * How a 200 to the input is read:
 * - 'ignorable': input the spec says nothing about, which a service may ignore (INFO);
 * - 'one-of-repeated': a single-string parameter given twice; web frameworks take
 *   one of the values, each of which is valid, so a 200 shows nothing contrary to
 *   4.2 (REVIEW: 4.2 types the parameter as one string);
 * - 'unknown-flow': a user_flow outside the eight of rule 2, which a 200 then
 *   answers as if it were one (WARN: it is users.unknown-flow-rejected's rule);
 * - 'empty-value': a parameter given empty, which a service may read as left
 *   out (REVIEW: 4.2 shows no format of the values).
 */
export type Leniency = 'ignorable' | 'one-of-repeated' | 'unknown-flow' | 'empty-value';

export interface AcceptedInput {
  /** The hostile request, as messages name it. */
  what: string;
  leniency: Leniency;
  status: number;
  exchange?: number;
}

/** users.bad-input-no-server-error: what a 2xx to hostile input says about leniency (the body is held to 2.2 before this). */
export const hostileInputAccepted = defineJudgment<AcceptedInput>('users.hostile-input-accepted', (input, says) => {
  const { what, leniency, status, exchange } = input;
  if (leniency === 'one-of-repeated') {
    says.review(`user details with ${what} was answered ${status}: 4.2 types the parameter as one string; frameworks commonly take one of the values`, { actual: status });
  } else if (leniency === 'empty-value') {
    says.review(`user details with ${what} was answered ${status}: ${EMPTY_VALUE_OPEN}`, { actual: status });
  } else if (leniency === 'unknown-flow') {
    says.warn(`user details with ${what} was answered ${status}, though the value is none of the eight user_flow values of rule 2`, { actual: status, exchange }, { on: 'SPEC-4-2-RULE-2', observed: answeredWith(status, exchange) });
  } else says.note(`${what} → ${status}`);
});
