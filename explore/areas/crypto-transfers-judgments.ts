// The judgments explored withdrawal-address creates are held to that the
// hand-written checks do not already define (suites/crypto-transfers/):
// every answer to a generated body, and the code of a refused body of wrong
// types. Pure, named, re-made by `ptas rejudge` from the recorded input.
import { answeredWith, defineJudgment } from '../../src/check/judgments.ts';
import { isServerError, isSuccess } from '../../src/check/context.ts';
import { PARAMETER_ERROR_CODES, contradictionOf2_3 } from '../../suites/crypto-transfers/support.ts';

export interface BodyAnswer {
  /** The case, in words. */
  what: string;
  status: number;
  exchange?: number;
  /** Every field sent had 4.3's type (and UUID shape). */
  typed: boolean;
  /** A 2xx or 5xx answer's body: its JSON, or why it is none. */
  json?: unknown;
  jsonError?: string;
}

/**
 * A 2xx answer holds 2.3's types, and is JSON (4.3 Response 200, 1), whatever
 * body it answers: FAIL on that sentence. A 5xx whose body carries an address
 * stored one: FAIL on the rule that it must be refused. Everything else is
 * recorded: a body of wrong types taken (the spec ties no refusal to a type),
 * a type-correct body refused (which fields are required: not shown), a 5xx
 * that shows nothing stored (7 lists 500 for this operation).
 */
export const bodiesAnswered = defineJudgment<BodyAnswer>('explore.crypto-transfers.bodies-answered', (input, says) => {
  const { what, status, exchange, typed } = input;
  const observed = answeredWith(status, exchange);
  if (isSuccess(status)) {
    const contradiction = contradictionOf2_3(input);
    if (contradiction) return says.fail(`${what} was answered ${status}, and ${contradiction.why}`, { exchange }, { on: contradiction.on, observed });
    if (!typed) says.note(`${what} was taken (${status}): the spec gives each field a type but ties no refusal to a wrong one (4.3), so this is recorded, not judged`);
    return;
  }
  if (isServerError(status)) {
    const stored = (input.json as { data?: { id?: unknown } } | null | undefined)?.data?.id;
    if (typeof stored === 'string') {
      if (!typed) return says.fail(`${what} was answered ${status} and its body carries the address it stored (data.id ${stored})`, { exchange }, { observed: { kind: 'effect' } });
      return says.review(`${what} was answered ${status}, and its body carries an address (data.id ${stored}): for a human`, { exchange });
    }
    return says.review(`${what} was answered ${status}, with no address in its body: 7 lists 500 for this operation and which bodies it takes is not shown, so this is recorded for a human`, { exchange });
  }
  if (typed) says.note(`${what} was refused (${status}): which fields are required, and which values are taken, is not shown (4.3)`);
});

/** 7 names 422 the parameter error of this operation, and 400 bad request: a refused body of wrong types answered otherwise is a WARN on the SHOULD. */
export const parameterErrorCode = defineJudgment<{ what: string; status: number; exchange?: number }>('explore.crypto-transfers.parameter-error-code', (input, says) => {
  const { what, status, exchange } = input;
  if ((PARAMETER_ERROR_CODES as readonly number[]).includes(status)) return;
  if (status === 401 || status === 403 || status === 404 || status === 429 || status === 413) {
    return says.note(`${what} was refused ${status}, a refusal for another reason than its body: no parameter-error code to weigh`);
  }
  says.warn(`${what} was refused ${status}: a body parameter error is answered 422 (parameter error) or 400`, { expected: PARAMETER_ERROR_CODES, actual: status, exchange }, { observed: answeredWith(status, exchange) });
});
