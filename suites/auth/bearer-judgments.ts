// What the answers of protected operations say of the bearer credential
// (spec 5 rules 1-2, 7), judged from the status alone: only a 401 refuses the
// credential itself. Named and pure (src/check/judgments.ts), so a stored run
// is judged again by the installed suite's version of them.
import { isSuccess } from '../../runner/index.ts';
import { defineJudgment } from '../../src/check/judgments.ts';
import { documentedRefusals } from '../../src/spec/status-codes.ts';

export interface AccessTokenAnswer {
  /** How the token was obtained, in the check's words ("a freshly issued access token"). */
  how: string;
  /** The protected operation's path. */
  path: string;
  status: number;
  exchange: number;
  /** auth.protectedPath as the profile declares it (null: the default, user details). */
  declaredProtectedPath: string | null;
}

/**
 * An access token the token endpoint issued, presented to a protected GET:
 * let in (2xx) it holds; a 401 refuses the credential (FAIL); a 403
 * recognised it, but this client may not call the operation — no rule of 5
 * is contradicted, so REVIEW where the profile chose the operation, and on
 * the default (user details, whose section 7 list has no 403) a WARN on that
 * list; any other answer says nothing of the credential (ERROR).
 */
export const accessTokenLetIn = defineJudgment<AccessTokenAnswer>('auth.access-token-let-in', (input, says) => {
  const { how, path, status, exchange } = input;
  if (isSuccess(status)) return;
  const details = { actual: status, exchange };
  // The answer is named explicitly: a transient one decides nothing (src/check/outcome.ts).
  const observed = { kind: 'answer' as const, status };
  if (status === 401) return says.fail(`${how} was refused as a credential: 401 (unauthorized) on GET ${path}`, details, { observed });
  if (status === 403) {
    const message = `${how} was answered 403 (forbidden) on GET ${path}: the credential was recognised, but this client may not call the operation, which contradicts no rule of 5; set auth.protectedPath to a GET operation this client may call`;
    if (input.declaredProtectedPath !== null) return says.review(`${message} (auth.protectedPath is ${path})`, details);
    return says.warn(`${message}; 403 is not among the codes 7 lists for user details (${documentedRefusals('userDetails').join('/')})`, details, { on: 'SPEC-7-USER-DETAILS-CODES', observed });
  }
  says.notObserved(`GET ${path} with ${how} was answered ${status}, which says nothing of whether the credential was let in; set auth.protectedPath to a GET operation this client may call`, details);
});

/**
 * A refresh token presented as a bearer credential, refused (the refusal
 * rule judged that): 401 is the code for a credential that is not an access
 * token, implied by 5 rule 1 but not tied to it, so another code of the
 * operation's section 7 list is a WARN. A code outside that list is the
 * refusal rule's to judge, not this one's.
 */
export const refreshTokenRefusalCode = defineJudgment<{ status: number; exchange: number }>('auth.refresh-token-refusal-code', ({ status, exchange }, says) => {
  if (status !== 401 && documentedRefusals('userDetails').includes(status)) {
    says.warn(`a refresh token as bearer credential was refused with ${status}; 401 (unauthorized) is the code for a credential that is not an access token`, { expected: 401, actual: status, exchange }, { observed: { kind: 'answer', status } });
  }
});
