// Token endpoint parameter handling (spec 4.1 field table, 7).
import { defineCheck, isServerError, isSuccess } from '../../src/check/index.ts';
import { TOKEN_PATH, postToken } from '../../src/auth/tokens.ts';

defineCheck(
  {
    id: 'auth.grant-type-required',
    title: 'A missing or unknown grant_type is rejected',
    area: 'auth',
    requirements: ['TOKEN-GRANT-TYPE-REQUIRED'],
    severity: 'MUST',
  },
  async ({ check, http, profile }) => {
    const { clientId, clientSecret } = profile.credentials;
    const cases: Array<[string, Record<string, unknown>]> = [
      ['no grant_type', { client_id: clientId, client_secret: clientSecret }],
      ['grant_type "password"', { grant_type: 'password', client_id: clientId, client_secret: clientSecret }],
      ['an empty grant_type', { grant_type: '', client_id: clientId, client_secret: clientSecret }],
    ];
    for (const [what, body] of cases) {
      check.expectRejected(await postToken(http, body, `token request with ${what}`), `a token request with ${what}`, [422]);
    }
  },
);

defineCheck(
  {
    id: 'auth.client-secret-verified',
    title: 'client_credentials with a wrong or missing client_secret is rejected',
    area: 'auth',
    requirements: ['TOKEN-CLIENT-SECRET-VERIFIED'],
    severity: 'MUST',
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
      check.expectRejected(await postToken(http, body, `client_credentials with ${what}`), `client_credentials with ${what}`, [422]);
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
    area: 'auth',
    requirements: ['TOKEN-PARAMETER-ERROR-422'],
    severity: 'SHOULD',
  },
  async ({ check, http, profile }) => {
    const other: string[] = [];
    for (const [what, body] of parameterErrors(profile.credentials.clientId, profile.credentials.clientSecret)) {
      const res = await postToken(http, body, `token request with ${what}`);
      if (isSuccess(res.status)) check.fail(`a token request with ${what} was accepted: ${res.status}`);
      if (res.status !== 422) other.push(`${what} → ${res.status}`);
    }
    if (other.length) check.fail(`parameter errors answered with codes other than 422: ${other.join('; ')}`, { expected: 422, actual: other });
  },
);

defineCheck(
  {
    id: 'auth.bad-input-no-server-error',
    title: 'Malformed token requests get a client error, never 2xx or 5xx',
    area: 'auth',
    requirements: ['TOKEN-NO-SERVER-ERROR-ON-BAD-INPUT'],
    severity: 'MUST',
  },
  async ({ check, http, profile }) => {
    const { clientId, clientSecret } = profile.credentials;
    const json = { 'content-type': 'application/json' };
    const cases: Array<[string, { body: string; headers: Record<string, string> }]> = [
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
    const problems: string[] = [];
    for (const [what, request] of cases) {
      const res = await http.post(TOKEN_PATH, { ...request, label: `token request with ${what}` });
      if (isServerError(res.status)) problems.push(`${what} caused ${res.status}`);
      else if (isSuccess(res.status) && what !== 'a form-encoded body') problems.push(`${what} was accepted (${res.status})`);
      else if (res.status === 429) check.warn(`${what} was rate limited (429), so its handling was not observed`);
    }
    if (problems.length) check.fail(problems.join('; '), { problems });
  },
);
