// What the token endpoint answered to requests with wrong parameters or a
// malformed body (spec 4.1 field table, 7, 1), judged from the statuses. A
// server error among them is judged by what it did, by the shared rule
// (src/check/rules.ts), not here. Named and pure (src/check/judgments.ts).
import { isServerError, isSuccess } from '../../runner/index.ts';
import { defineJudgment } from '../../src/check/judgments.ts';

/**
 * A token request with a parameter error, accepted: a FAIL at once (the
 * check sends no more of them), whatever code the others get.
 */
export const parameterErrorAccepted = defineJudgment<{ what: string; status: number; exchange: number }>('auth.parameter-error-accepted', ({ what, status, exchange }, says) => {
  if (isSuccess(status)) says.fail(`a token request with ${what} was accepted: ${status}`, { exchange }, { observed: { kind: 'answer', status } });
});

/** 7 ties parameter errors of the token endpoint to 422: every answer of the check's parameter errors, refused, must be that code. */
export const parameterErrorsAre422 = defineJudgment<{ answers: Array<{ what: string; status: number }> }>('auth.parameter-errors-are-422', ({ answers }, says) => {
  const other = answers.filter((a) => a.status !== 422).map((a) => `${a.what} → ${a.status}`);
  if (other.length) says.fail(`parameter errors answered with codes other than 422: ${other.join('; ')}`, { expected: 422, actual: other });
});

/**
 * A malformed token request that was not answered with a server error:
 * accepting input the spec types otherwise is leniency, a WARN (its answer's
 * schema is the schema rule's to judge); a refusal is noted.
 */
export const malformedRequestAnswer = defineJudgment<{ what: string; status: number }>('auth.malformed-request-answer', ({ what, status }, says) => {
  if (isServerError(status)) return;
  if (isSuccess(status)) says.warn(`a token request with ${what} was accepted (${status}); 1 and 4.1 describe a JSON object body with string members`, { actual: status });
  else says.note(`${what} → ${status}`);
});
