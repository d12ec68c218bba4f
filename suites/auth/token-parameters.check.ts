// Token endpoint parameter handling (spec 4.1 field table, 7). A server
// error to a request that must be refused is judged by what it did
// (src/check/server-error.ts): the token endpoint's row lists 500, so it is
// a WARN unless a token was handed out or a refresh token spent
// (refusal-effect.ts), which FAILs.
import { defineCheck, isServerError, isSuccess, type CheckContext, type HttpResponse } from '../../runner/index.ts';
import { TOKEN_PATH, issuePair, postToken } from '../../src/auth/tokens.ts';
import type { Effect } from '../../src/check/server-error.ts';
import { refreshRequestEffect, tokenRequestEffect } from './refusal-effect.ts';
import { malformedRequestAnswer, parameterErrorAccepted, parameterErrorsAre422 } from './parameter-judgments.ts';

defineCheck(
  {
    id: 'auth.grant-type-required',
    title: 'A missing or unknown grant_type is rejected',
    requirements: ['TOKEN-GRANT-TYPE-REQUIRED'],
  },
  async ({ check, http, profile }) => {
    const { clientId, clientSecret } = profile.credentials;
    const cases: Array<[string, Record<string, unknown>]> = [
      ['no grant_type', { client_id: clientId, client_secret: clientSecret }],
      ['grant_type "password"', { grant_type: 'password', client_id: clientId, client_secret: clientSecret }],
      ['an empty grant_type', { grant_type: '', client_id: clientId, client_secret: clientSecret }],
    ];
    for (const [what, body] of cases) {
      const res = await postToken(http, body, `token request with ${what}`);
      check.expectRefused(res, { operation: 'token', what: `a token request with ${what}`, on: 'TOKEN-GRANT-TYPE-REQUIRED', effect: tokenRequestEffect(res, 'TOKEN-GRANT-TYPE-REQUIRED') });
    }
  },
);

defineCheck(
  {
    id: 'auth.client-secret-verified',
    title: 'client_credentials with a wrong or missing client_secret is rejected',
    requirements: ['TOKEN-CLIENT-SECRET-VERIFIED'],
  },
  async ({ check, http, profile }) => {
    const { clientId, clientSecret } = profile.credentials;
    const wrong = `${clientSecret}-wrong`;
    http.redactor.addSecret(wrong, 'client_secret');
    const cases: Array<[string, Record<string, unknown>]> = [
      ['a wrong client_secret', { grant_type: 'client_credentials', client_id: clientId, client_secret: wrong }],
      ['no client_secret', { grant_type: 'client_credentials', client_id: clientId }],
    ];
    for (const [what, body] of cases) {
      const res = await postToken(http, body, `client_credentials with ${what}`);
      check.expectRefused(res, { operation: 'token', what: `client_credentials with ${what}`, on: 'TOKEN-CLIENT-SECRET-VERIFIED', effect: tokenRequestEffect(res, 'TOKEN-CLIENT-SECRET-VERIFIED') });
    }
  },
);

/** Parameter errors the token endpoint must answer with 422 (spec 7). */
function parameterErrors(clientId: string, clientSecret: string): Array<[string, Record<string, unknown>]> {
  return [
    ['no grant_type', { client_id: clientId, client_secret: clientSecret }],
    ['an unknown grant_type', { grant_type: 'authorization_code', client_id: clientId, client_secret: clientSecret }],
    ['client_credentials without client_id', { grant_type: 'client_credentials', client_secret: clientSecret }],
    ['refresh_token without refresh_token', { grant_type: 'refresh_token', client_id: clientId }],
  ];
}

defineCheck(
  {
    id: 'auth.parameter-errors-are-422',
    title: 'Token endpoint parameter errors are answered 422',
    requirements: ['TOKEN-PARAMETER-ERROR-422'],
  },
  async ({ check, http, profile }) => {
    const answers: Array<{ what: string; status: number }> = [];
    for (const [what, body] of parameterErrors(profile.credentials.clientId, profile.credentials.clientSecret)) {
      const res = await postToken(http, body, `token request with ${what}`);
      check.judge(parameterErrorAccepted, { what, status: res.status, exchange: res.exchangeId });
      answers.push({ what, status: res.status });
    }
    check.judge(parameterErrorsAre422, { answers });
  },
);

/** Token requests the spec's words make malformed: a body that is not a JSON object, or members of another type than 4.1 gives. */
function malformedRequests(clientId: string, clientSecret: string): Array<[string, { body: string; headers: Record<string, string> }]> {
  const json = { 'content-type': 'application/json' };
  return [
    ['malformed JSON', { body: '{"grant_type": "client_credentials", "client_id": ', headers: json }],
    ['an empty body', { body: '', headers: json }],
    ['a JSON array body', { body: '[]', headers: json }],
    ['a JSON string body', { body: '"client_credentials"', headers: json }],
    ['grant_type as a number', { body: JSON.stringify({ grant_type: 42, client_id: clientId, client_secret: clientSecret }), headers: json }],
    ['client_id as an object', { body: JSON.stringify({ grant_type: 'client_credentials', client_id: { id: clientId }, client_secret: clientSecret }), headers: json }],
    [
      'a form-encoded body',
      {
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      },
    ],
  ];
}

/** The check's own sentence, which a token handed out despite the bad input contradicts. */
const BAD_INPUT = 'TOKEN-NO-SERVER-ERROR-ON-BAD-INPUT';

/**
 * One answer to a malformed token request: a 5xx judged by what it did
 * (a FAIL or a gateway answer ends the check, a listed 500 that did nothing
 * readable is a WARN); a 2xx is leniency, a WARN, unless the answer
 * contradicts 2.1; a refusal is noted.
 */
function judgeAnswer(check: CheckContext, what: string, res: HttpResponse, effect: Effect): void {
  // A 429 or 503 never comes back here: the client asks again, and a still-transient answer ends the check ERROR "not observed".
  if (isServerError(res.status)) return check.serverError(res, { operation: 'token', what: `a token request with ${what}`, effect });
  if (isSuccess(res.status)) check.expectSchema(res, 'token-response.schema.json', `the answer to a token request with ${what}`, { on: 'SPEC-4-1-RESPONSE-200' });
  check.judge(malformedRequestAnswer, { what, status: res.status });
}

defineCheck(
  {
    id: 'auth.bad-input-no-server-error',
    title: 'Malformed token requests never cause a 5xx; one that issued or spent a token FAILs',
    requirements: [BAD_INPUT],
  },
  async ({ check, http, profile }) => {
    // One rule for input leniency: accepting input the spec types otherwise
    // is a WARN, and a FAIL only when the answer it gets contradicts the
    // spec itself (its schema); a 5xx is judged by what it did.
    const { clientId, clientSecret } = profile.credentials;
    for (const [what, request] of malformedRequests(clientId, clientSecret)) {
      const res = await http.post(TOKEN_PATH, { ...request, label: `token request with ${what}` });
      judgeAnswer(check, what, res, tokenRequestEffect(res, BAD_INPUT));
    }
    // A refresh whose client_id has another type: a server error may have spent the refresh token, which shows.
    const what = 'client_id as an object in a refresh';
    const pair = await issuePair(http, profile, 'obtain a token pair to refresh with a malformed client_id');
    const res = await postToken(http, { grant_type: 'refresh_token', client_id: { id: clientId }, refresh_token: pair.refreshToken }, `token request with ${what}`);
    judgeAnswer(check, what, res, await refreshRequestEffect(http, profile, res, pair.refreshToken, BAD_INPUT));
  },
);
