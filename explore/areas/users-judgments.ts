// The judgments explored user-details requests are held to that the
// hand-written checks do not already define (suites/users/): the answer to
// a set of declared user_journey[] values, the code of a refused
// journey-parameter violation, and the answer to Accept-Language: *. Pure,
// named, re-made by `ptas rejudge` from the recorded input.
import { answeredWith, defineJudgment } from '../../src/check/judgments.ts';
import { PARAMETER_ERROR_CODES } from '../../suites/users/support.ts';

export interface DeclaredJourneysInput {
  /** The case, in words. */
  what: string;
  status: number;
  exchange?: number;
  /** How many distinct user_journey[] values were sent, each one users.journeys declares. */
  distinct: number;
  /** users.journeys as the profile declares it. */
  journeys: unknown;
}

/**
 * user_journey[] values the profile declares accepted, each once and nothing
 * else in the journey context, answer 200: two or more refused contradict
 * "user_journey[] (array, repeatable)" (4.2); one refused contradicts the
 * profile, which declares the value (the spec does not show the values).
 */
export const declaredJourneysServed = defineJudgment<DeclaredJourneysInput>('explore.users.declared-journeys-served', (input, says) => {
  const { what, status, exchange, distinct } = input;
  if (status === 200) return;
  const observed = answeredWith(status, exchange);
  if (distinct >= 2) {
    return says.fail(`${what} was answered ${status}: user_journey[] is an array, repeatable (4.2), and each value sent is one the profile declares accepted`, { expected: 200, actual: status, exchange }, { observed });
  }
  says.failDeclared('users.journeys', input.journeys, `${what} was answered ${status}, though the profile declares the user_journey[] value accepted`, { expected: 200, actual: status, exchange }, { observed });
});

export interface ViolationCodeInput {
  what: string;
  status: number;
  exchange?: number;
}

/**
 * A journey-parameter violation (one 4.2 rules 1-5 determine, sent with a
 * valid bearer for the profile's user) that is refused is answered 400 (bad
 * request) or 422 (parameter error), the codes 7 lists for it: another 4xx
 * is a WARN on the SHOULD. A 401 or 403 refuses for the credential, not the
 * parameters (recorded); a 429 says "not now" (not observed); an answer
 * that is no refusal is the rule's own check's to judge.
 */
export const violationRefusalCode = defineJudgment<ViolationCodeInput>('explore.users.violation-refusal-code', (input, says) => {
  const { what, status, exchange } = input;
  if ((PARAMETER_ERROR_CODES as readonly number[]).includes(status)) return;
  if (status < 400 || status >= 500) return says.note(`${what} was answered ${status}, no refusal: its code is not this rule's to weigh`);
  if (status === 429) return says.notObserved(`${what} was answered 429 (a rate limit), not the refusal of its parameters`, { exchange });
  if (status === 401 || status === 403 || status === 413) {
    return says.note(`${what} was refused ${status}, for another reason than its parameters: no parameter-error code to weigh`);
  }
  says.warn(`${what} was refused ${status}: a journey-parameter violation is answered 400 (bad request) or 422 (parameter error)`, { expected: PARAMETER_ERROR_CODES, actual: status, exchange }, { observed: answeredWith(status, exchange) });
});

export interface WildcardLanguageInput {
  /** The Accept-Language value sent, one the profile does not declare (e.g. *). */
  value: string;
  status: number;
  exchange?: number;
  /** The status of the same request without Accept-Language, when it was sent. */
  controlStatus?: number;
}

/**
 * Accept-Language of a value the profile does not declare, on a request the
 * spec says is served: the allowed values are not shown (4.2) and RFC 9110
 * 12.5.4 lets a server disregard the header, so a refusal the header alone
 * caused is for a human (REVIEW), never a finding.
 */
export const undeclaredLanguageAnswered = defineJudgment<WildcardLanguageInput>('explore.users.undeclared-language-answered', (input, says) => {
  const { value, status, controlStatus } = input;
  if (status === 200) return says.note(`Accept-Language: ${value} → 200`);
  if (controlStatus === 200) {
    return says.review(
      `user details with Accept-Language: ${value} was answered ${status}, the same request without the header 200: ${value} is no language the profile declares, and 4.2 does not show the allowed values of Accept-Language`,
      { actual: status, without: controlStatus },
    );
  }
  says.note(`Accept-Language: ${value} → ${status}, and ${controlStatus ?? 'no answer'} without the header: the refusal is not the header's`);
});
