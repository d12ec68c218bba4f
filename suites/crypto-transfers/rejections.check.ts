// Requests that creating a withdrawal address must refuse (spec 4.3, 5, 7):
// no bearer, no or an unknown svc-user-id, bodies that are not the JSON the
// operation takes — always a 4xx, never a 2xx, never a 5xx.
import { defineCheck, isServerError, isSuccess } from '../../src/check/index.ts';
import type { HttpResponse } from '../../src/check/index.ts';
import type { WithdrawalAddressRequest } from '../../src/config/sections/crypto-transfers.ts';
import { PARAMETER_ERROR_CODES, REQUEST_FIELDS, postWithdrawalAddress, withdrawalFixture, type PostOptions } from './support.ts';

defineCheck(
  {
    id: 'crypto-transfers.user-header-required',
    title: 'Creating a withdrawal address without svc-user-id is rejected',
    area: 'crypto-transfers',
    requirements: ['WDA-USER-HEADER-REQUIRED'],
    severity: 'MUST',
  },
  async ({ check, http, profile, tokens }) => {
    const fixture = withdrawalFixture(profile, check);
    const bearer = await tokens.get();
    const cases: Array<[string, string | undefined]> = [
      ['no svc-user-id header', undefined],
      ['an empty svc-user-id header', ''],
    ];
    for (const [what, userId] of cases) {
      const res = await postWithdrawalAddress(http, { bearer, userId, json: fixture.body, label: `create with ${what}` });
      check.expectRejected(res, `creating a withdrawal address with ${what}`, PARAMETER_ERROR_CODES);
    }
  },
);

defineCheck(
  {
    id: 'crypto-transfers.unknown-user-rejected',
    title: 'Creating a withdrawal address for an unknown or malformed user id is rejected',
    area: 'crypto-transfers',
    requirements: ['WDA-UNKNOWN-USER-REJECTED'],
    severity: 'MUST',
  },
  async ({ check, http, profile, tokens }) => {
    const fixture = withdrawalFixture(profile, check);
    const bearer = await tokens.get();
    const unknown = crypto.randomUUID();
    const res = await postWithdrawalAddress(http, { bearer, userId: unknown, json: fixture.body, label: 'create for an unknown user' });
    check.expectRejected(res, `creating a withdrawal address for the unknown user ${unknown}`, [404]);
    const malformed = await postWithdrawalAddress(http, { bearer, userId: 'not-a-user-id', json: fixture.body, label: 'create for a malformed user id' });
    check.expectRejected(malformed, 'creating a withdrawal address for svc-user-id "not-a-user-id"', [400, 404, 422]);
  },
);

defineCheck(
  {
    id: 'crypto-transfers.bearer-required',
    title: 'Creating a withdrawal address without a bearer credential answers 401',
    area: 'crypto-transfers',
    requirements: ['WDA-BEARER-REQUIRED'],
    severity: 'MUST',
  },
  async ({ check, http, profile }) => {
    const fixture = withdrawalFixture(profile, check);
    const res = await postWithdrawalAddress(http, { userId: fixture.userId, json: fixture.body, label: 'create without Authorization' });
    if (isSuccess(res.status)) check.fail(`a withdrawal address was created without a bearer credential: ${res.status}`, { expected: 401, actual: res.status });
    check.expectStatus(res, 401, 'creating a withdrawal address without a bearer credential');
  },
);

type BadRequest = Pick<PostOptions, 'json' | 'body' | 'contentType'>;

/** Bodies that are not JSON at all: 400 (bad request) or 422. */
function unreadableBodies(body: WithdrawalAddressRequest): Array<[string, BadRequest]> {
  return [
    ['an empty body', { body: '', contentType: 'application/json' }],
    ['malformed JSON', { body: JSON.stringify(body).slice(0, -7), contentType: 'application/json' }],
    ['a form-encoded body', { body: new URLSearchParams(body as Record<string, string>).toString(), contentType: 'application/x-www-form-urlencoded' }],
  ];
}

/** JSON bodies with a parameter error: a wrong type, a malformed UUID, no object at all. */
function parameterErrorBodies(body: WithdrawalAddressRequest): Array<[string, BadRequest]> {
  const cases: Array<[string, BadRequest]> = [
    ['a JSON array', { json: [body] }],
    ['JSON null', { body: 'null', contentType: 'application/json' }],
    ['user_owned as a string', { json: { ...body, user_owned: String(body.user_owned ?? false) } }],
    ['address as a number', { json: { ...body, address: 12345 } }],
    ['coin_network_id as a number', { json: { ...body, coin_network_id: 42 } }],
    ['a malformed coin_network_id', { json: { ...body, coin_network_id: 'not-a-uuid' } }],
    ['a malformed host_id', { json: { ...body, host_id: '1234-5678' } }],
    ['host_name as an object', { json: { ...body, host_name: { name: body.host_name ?? 'x' } } }],
  ];
  return cases;
}

defineCheck(
  {
    id: 'crypto-transfers.invalid-bodies-rejected',
    title: 'Empty, non-JSON, wrongly typed bodies and malformed UUIDs are rejected with a 4xx',
    area: 'crypto-transfers',
    requirements: ['WDA-INVALID-BODY-REJECTED'],
    severity: 'MUST',
  },
  async ({ check, http, profile, tokens }) => {
    const fixture = withdrawalFixture(profile, check);
    const bearer = await tokens.get();
    for (const [what, request] of [...unreadableBodies(fixture.body), ...parameterErrorBodies(fixture.body)]) {
      const res = await postWithdrawalAddress(http, { bearer, userId: fixture.userId, ...request, label: `create with ${what}` });
      // The exact code is the concern of crypto-transfers.parameter-error-code.
      if (isSuccess(res.status)) check.fail(`a withdrawal address with ${what} was accepted: ${res.status}`, { expected: '4xx', actual: res.status });
      if (isServerError(res.status) || res.status < 400) check.fail(`a withdrawal address with ${what} got ${res.status}, not a 4xx`, { expected: '4xx', actual: res.status });
    }
  },
);

defineCheck(
  {
    id: 'crypto-transfers.parameter-error-code',
    title: 'Body parameter errors are answered 422 (or 400)',
    area: 'crypto-transfers',
    requirements: ['WDA-PARAMETER-ERROR-CODE'],
    severity: 'SHOULD',
  },
  async ({ check, http, profile, tokens }) => {
    const fixture = withdrawalFixture(profile, check);
    const bearer = await tokens.get();
    const off: string[] = [];
    for (const [what, request] of parameterErrorBodies(fixture.body)) {
      const res: HttpResponse = await postWithdrawalAddress(http, { bearer, userId: fixture.userId, ...request, label: `create with ${what}` });
      if (!(PARAMETER_ERROR_CODES as readonly number[]).includes(res.status)) off.push(`${what}: ${res.status}`);
    }
    if (off.length) check.fail(`body parameter errors were not answered 422 or 400: ${off.join('; ')}`, { expected: PARAMETER_ERROR_CODES, actual: off });
  },
);

defineCheck(
  {
    id: 'crypto-transfers.required-fields-review',
    title: 'Which body fields are required is recorded; leaving one out never causes a 5xx',
    area: 'crypto-transfers',
    requirements: ['WDA-REQUIRED-FIELDS'],
    severity: 'REVIEW',
  },
  async ({ check, http, profile, tokens }) => {
    const fixture = withdrawalFixture(profile, check);
    const bearer = await tokens.get();
    const required: string[] = [];
    const optional: string[] = [];
    const crashed: string[] = [];
    for (const field of REQUEST_FIELDS.filter((f) => fixture.body[f] !== undefined)) {
      const { [field]: _left, ...rest } = fixture.body;
      const res = await postWithdrawalAddress(http, { bearer, userId: fixture.userId, json: rest, label: `create without ${field}` });
      if (isServerError(res.status)) crashed.push(`${field} (${res.status})`);
      else if (isSuccess(res.status)) optional.push(field);
      else required.push(`${field} (${res.status})`);
    }
    if (crashed.length) check.fail(`leaving out a body field caused a server error: ${crashed.join(', ')}`, { crashed });
    check.review(`for this body, required (refused when left out): ${required.join(', ') || 'none'}; optional (200 without it): ${optional.join(', ') || 'none'}`, {
      required,
      optional,
    });
  },
);
