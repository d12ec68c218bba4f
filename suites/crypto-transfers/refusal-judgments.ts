// Judgments of the answers to creates the operation does not take (spec 4.3,
// 2.3, 7): bodies that are empty, not JSON, wrongly typed or malformed, their
// refusal codes, and bodies with a field left out. A 5xx to any of them is
// judged by the server-error rule (src/check/rules.ts), which the check
// applies itself; these judge the rest. Only a 2xx answer's body is kept in
// the input: it is what is held to 2.3.
import { answeredWith, defineJudgment } from '../../src/check/judgments.ts';
import { isServerError, isSuccess } from '../../src/check/context.ts';
import { PARAMETER_ERROR_CODES, contradictionOf2_3 } from './support.ts';

export interface InvalidBodyAnswer {
  /** The body sent, as messages name it. */
  what: string;
  status: number;
  exchange?: number;
  /** A 2xx answer's body: its JSON, or why it is none. */
  json?: unknown;
  jsonError?: string;
}

/**
 * crypto-transfers.invalid-bodies-rejected: input leniency is never a FAIL on
 * its own (the spec gives each field a type but ties no refusal to a wrong
 * one), so a 2xx is a WARN — unless the 2xx answer itself contradicts 2.3 (or
 * 1, when its body is not JSON): then FAIL on that sentence, the first such
 * answer naming it, the rest listed. A 4xx is refused (its code is
 * crypto-transfers.parameter-error-code's), a 5xx the server-error rule's.
 */
export const invalidBodiesNotTaken = defineJudgment<{ answers: InvalidBodyAnswer[] }>('crypto-transfers.invalid-bodies-not-taken', (input, says) => {
  const contradictions: Array<{ why: string; on: string; status: number; exchange?: number }> = [];
  const lenient: string[] = [];
  for (const answer of input.answers) {
    const { what, status, exchange } = answer;
    if ((status >= 400 && status < 500) || isServerError(status)) continue;
    const contradiction = contradictionOf2_3(answer);
    if (contradiction) contradictions.push({ ...contradiction, why: `${what} was answered ${status}, and ${contradiction.why}`, status, exchange });
    else lenient.push(`${what}: ${status}`);
  }
  if (lenient.length) {
    says.warn(
      `requests the operation does not take were not refused: ${lenient.join('; ')}. The spec gives each field's type (4.3) without a rule that a wrong one is refused, so this is leniency, not a contradiction; the answers carry 2.3's types`,
      { notRefused: lenient },
    );
  }
  const also = contradictions.map((c) => c.why);
  const [first] = contradictions;
  if (first) says.fail(`bodies the operation does not take: ${also.join('; ')}`, { contradictions: also, exchange: first.exchange }, { on: first.on, observed: answeredWith(first.status, first.exchange) });
});

/** crypto-transfers.parameter-error-code: a refused parameter error is answered 422 (parameter error) or 400; a 2xx or 5xx has no refusal code to weigh. */
export const parameterErrorCodes = defineJudgment<{ answers: Array<{ what: string; status: number }> }>('crypto-transfers.parameter-error-codes', (input, says) => {
  const off: string[] = [];
  const notRefused: string[] = [];
  for (const { what, status } of input.answers) {
    // A 2xx or 5xx is crypto-transfers.invalid-bodies-rejected's to judge; this check weighs the refusal code.
    if (status < 400 || status >= 500) notRefused.push(`${what}: ${status}`);
    else if (!(PARAMETER_ERROR_CODES as readonly number[]).includes(status)) off.push(`${what}: ${status}`);
  }
  if (notRefused.length) says.note(`not refused, so no code to weigh (see crypto-transfers.invalid-bodies-rejected): ${notRefused.join('; ')}`);
  if (off.length) says.fail(`body parameter errors were not answered 422 (parameter error) or 400: ${off.join('; ')}`, { expected: PARAMETER_ERROR_CODES, actual: off });
});

export interface LeftOutAnswer {
  /** The field left out of the body. */
  field: string;
  status: number;
  /** Without it the body names no generated placeholder, so a refusal may be of a duplicate from an earlier run. */
  repeats?: boolean;
}

/** crypto-transfers.required-fields-review: leaving a field out never causes a 5xx; which fields were refused when left out is for a human. */
export const requiredFields = defineJudgment<{ answers: LeftOutAnswer[] }>('crypto-transfers.required-fields', (input, says) => {
  const required: string[] = [];
  const optional: string[] = [];
  const crashed: string[] = [];
  for (const { field, status, repeats } of input.answers) {
    if (isServerError(status)) crashed.push(`${field} (${status})`);
    else if (isSuccess(status)) optional.push(field);
    else required.push(`${field} (${status}${repeats ? '; without it the body names no generated placeholder, so a refusal may be of a duplicate from an earlier run' : ''})`);
  }
  if (crashed.length) return says.fail(`leaving out a body field caused a server error: ${crashed.join(', ')}`, { crashed });
  says.review(`for this body, required (refused when left out): ${required.join(', ') || 'none'}; optional (200 without it): ${optional.join(', ') || 'none'}`, {
    required,
    optional,
  });
});
