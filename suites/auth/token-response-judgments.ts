// What the token endpoint's answer to client_credentials says (spec 2.1,
// 4.1 rule 1, 4, 5): the pair it carries, whether its body is JSON, and what
// a refusal of a request without Authorization demanded. Judged from the
// fields read, not the whole answer; named and pure (src/check/judgments.ts).
import { defineJudgment } from '../../src/check/judgments.ts';

export interface IssuedPair {
  /** The answer's access_token and refresh_token as they came (null: absent); tokens are compared as the record keeps them, redacted alike. */
  accessToken: unknown;
  refreshToken: unknown;
  status: number;
  exchange: number;
}

const present = (value: unknown) => typeof value === 'string' && value !== '';

/**
 * 4.1 rule 1: the answer "carries an initial refresh token and an access
 * token": both fields present, non-empty strings, and two tokens, not one
 * token in both fields.
 */
export const tokenPairIssued = defineJudgment<IssuedPair>('auth.token-pair-issued', (input, says) => {
  const { status, exchange } = input;
  const observed = { kind: 'answer' as const, status };
  for (const [field, value] of [['access_token', input.accessToken], ['refresh_token', input.refreshToken]] as const) {
    if (!present(value)) return says.fail(`the response carries no ${field}`, { field, actual: value ?? null, exchange }, { observed });
  }
  if (input.accessToken === input.refreshToken) {
    says.fail('the refresh token is the access token: rule 1 requires both an access token and a refresh token', { exchange }, { observed });
  }
});

/** The token response's body is JSON (2.1, "All request and response bodies are JSON"); jsonError says why it is not (the client always gives one then). */
export const tokenResponseParses = defineJudgment<{ parsed: boolean; jsonError: string | null; status: number; exchange: number }>('auth.token-response-parses', (input, says) => {
  if (!input.parsed) says.fail(`token response body is not JSON (${input.jsonError})`, { exchange: input.exchange }, { on: 'TOKEN-JSON-BODY', observed: { kind: 'answer', status: input.status } });
});

/**
 * A 401 or 403 from the token endpoint to a client_credentials request
 * without Authorization: 4 exempts the token endpoint from the bearer
 * credential, so a challenge for one FAILs; any other refusal is for a human
 * to look at — whether the endpoint requires some Authorization header is
 * not shown (5), and the suite sends none.
 */
export const tokenEndpointChallenge = defineJudgment<{ status: number; challenge: string }>('auth.token-endpoint-challenge', ({ status, challenge }, says) => {
  if (/\bbearer\b/i.test(challenge)) {
    return says.fail(`the token endpoint demanded a bearer credential: ${status} with WWW-Authenticate: ${challenge}`, { actual: status, challenge });
  }
  says.review(
    `the token endpoint answered ${status} without an Authorization header${challenge ? ` (WWW-Authenticate: ${challenge})` : ''}; whether it requires one is not shown (5), and the suite sends none`,
    { actual: status, challenge: challenge || null },
  );
});
