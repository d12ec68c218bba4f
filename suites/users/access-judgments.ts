// Judgments of who and what user details v2 serve where the spec leaves the
// answer to the profile (4.2): a language the profile declares supported is
// served, and an own-licence partner is restricted (rule 7) — by the code
// the profile declares, or, without a declaration, by some refusal. The
// declared values are in the input: a judgment reads no profile.
import { answeredWith, defineJudgment } from '../../src/check/judgments.ts';
import { isServerError, isSuccess } from '../../src/check/context.ts';
import { documentedRefusals } from '../../src/spec/status-codes.ts';

export interface LanguageServedInput {
  /** The Accept-Language value sent. */
  value: string;
  status: number;
  exchange?: number;
  /** users.languages as the profile declares it. */
  languages: unknown;
}

/** users.accept-language-accepted: a declared language (alone or in a weighted list) is served with 200. */
export const languageServed = defineJudgment<LanguageServedInput>('users.declared-language-served', (input, says) => {
  const { value, status, exchange } = input;
  if (status !== 200) {
    says.failDeclared('users.languages', input.languages, `user details with Accept-Language: ${value}, a language the profile declares supported, answered ${status}`, { expected: 200, actual: status, exchange }, { observed: answeredWith(status, exchange) });
  }
});

export interface OwnLicenceInput {
  status: number;
  /** The own-licence partner's client id, which the message names. */
  clientId: string;
  /** users.ownLicence.restrictedStatus, left out when the profile declares none. */
  restrictedStatus?: number;
}

/**
 * users.own-licence-restricted: with a declared code, any other answer
 * contradicts the profile; without, a 2xx or a 5xx is a finding (the check is
 * REVIEW: fail() is a WARN there, since rule 7 says "restricted", not how) and
 * a refusal is recorded for a human.
 */
export const ownLicenceRestricted = defineJudgment<OwnLicenceInput>('users.own-licence-restriction', (input, says) => {
  const { status, restrictedStatus: expected } = input;
  if (expected !== undefined) {
    if (status !== expected) says.failDeclared('users.ownLicence.restrictedStatus', expected, `the own-licence partner got ${status}; the profile documents ${expected} for the restriction`, { expected, actual: status });
    return;
  }
  if (isSuccess(status)) return says.fail(`the own-licence partner ${input.clientId} was served user details (${status}); rule 7 restricts the operation for it`, { actual: status });
  if (isServerError(status)) return says.fail(`the own-licence partner's request caused a server error: ${status}`, { actual: status });
  const listed = documentedRefusals('userDetails').includes(status);
  says.review(`the own-licence partner was refused with ${status}${listed ? '' : ' (not among the codes 7 lists for user details)'}; set users.ownLicence.restrictedStatus to the documented code to check it`, { actual: status });
});
