// Requests that creating a withdrawal address must refuse (spec 4.3, 5, 7):
// no bearer or a forged one, no or an unknown svc-user-id. Section 7 ties no code to a
// missing or unknown user, so any 4xx of 4.3's list passes (expectRefused);
// only the missing or forged bearer has its tied code, 401.
//
// A server error to any of them, or to a body below, is judged by what it
// did (src/check/server-error.ts): 7 lists 500 for the operation, so it is a
// WARN (RFC 9110 15.6) unless the answer carries the address it stored; no
// operation of the spec shows the address book, so that is all that can be
// read (addressEffect). A 503 is asked again by the client and, still 503,
// is ERROR not observed, never a finding.
//
// Bodies the operation does not take (empty, not JSON, wrongly typed, a
// malformed UUID) follow one rule, the same for every such body: input
// leniency is never a FAIL on its own. The spec gives each field a type but
// ties no refusal to a wrong one ("Which body fields are required and their
// conditional rules: not shown"), so a 2xx is a WARN — unless the 2xx answer
// itself contradicts 2.3 (a host_id that is not UUID-shaped, a user_owned
// that is a string, a body that is not JSON): then FAIL with that sentence.
import { defineCheck, isServerError, isSuccess } from '../../runner/index.ts';
import type { HttpResponse } from '../../runner/index.ts';
import type { WithdrawalAddressRequest } from '../../src/config/sections/crypto-transfers.ts';
import { variesPerRequest } from '../../src/placeholders.ts';
import { tamperPayload } from '../../src/auth/jwt.ts';
import { REQUEST_FIELDS, addressEffect, freshBody, postWithdrawalAddress, withdrawalFixture, type PostOptions } from './support.ts';
import { invalidBodiesNotTaken, parameterErrorCodes, requiredFields, type InvalidBodyAnswer, type LeftOutAnswer } from './refusal-judgments.ts';

defineCheck(
  {
    id: 'crypto-transfers.user-header-required',
    title: 'Creating a withdrawal address without svc-user-id is refused',
    requirements: ['WDA-USER-HEADER-REQUIRED'],
  },
  async ({ check, http, profile, tokens }) => {
    const fixture = withdrawalFixture(profile, check);
    const bearer = tokens;
    const cases: Array<[string, string | undefined]> = [
      ['no svc-user-id header', undefined],
      ['an empty svc-user-id header', ''],
    ];
    for (const [what, userId] of cases) {
      const res = await postWithdrawalAddress(http, { bearer, userId, json: freshBody(fixture), label: `create with ${what}` });
      // 7 ties no code to a missing user header: any refusal 4.3 lists will do.
      check.expectRefused(res, { operation: 'withdrawalAddress', what: `creating a withdrawal address with ${what}`, effect: addressEffect(res, 'WDA-USER-HEADER-REQUIRED') });
    }
  },
);

defineCheck(
  {
    id: 'crypto-transfers.unknown-user-rejected',
    title: 'Creating a withdrawal address for an unknown or malformed user id is refused',
    requirements: ['WDA-UNKNOWN-USER-REJECTED'],
  },
  async ({ check, http, profile, tokens }) => {
    const fixture = withdrawalFixture(profile, check);
    const bearer = tokens;
    const unknown = crypto.randomUUID();
    const res = await postWithdrawalAddress(http, { bearer, userId: unknown, json: freshBody(fixture), label: 'create for an unknown user' });
    // 404 "record not found" fits, 403 "forbidden" as well: 7 ties neither to an unknown user.
    check.expectRefused(res, { operation: 'withdrawalAddress', what: `creating a withdrawal address for the unknown user ${unknown}`, effect: addressEffect(res, 'WDA-UNKNOWN-USER-REJECTED') });
    const malformed = await postWithdrawalAddress(http, { bearer, userId: 'not-a-user-id', json: freshBody(fixture), label: 'create for a malformed user id' });
    check.expectRefused(malformed, { operation: 'withdrawalAddress', what: 'creating a withdrawal address for svc-user-id "not-a-user-id"', effect: addressEffect(malformed, 'WDA-UNKNOWN-USER-REJECTED') });
  },
);

defineCheck(
  {
    id: 'crypto-transfers.bearer-required',
    title: 'Creating a withdrawal address without a bearer credential is refused (401 expected)',
    requirements: ['WDA-BEARER-REQUIRED'],
  },
  async ({ check, http, profile }) => {
    const fixture = withdrawalFixture(profile, check);
    const res = await postWithdrawalAddress(http, { userId: fixture.userId, json: freshBody(fixture), label: 'create without Authorization' });
    check.expectUnauthorized(res, 'creating a withdrawal address without a bearer credential', { operation: 'withdrawalAddress', effect: addressEffect(res, 'WDA-BEARER-REQUIRED') });
  },
);

defineCheck(
  {
    id: 'crypto-transfers.tampered-bearer-401',
    title: 'Creating a withdrawal address with a tampered bearer token is refused (401 expected)',
    requirements: ['WDA-BEARER-INVALID-REJECTED'],
  },
  async ({ check, http, profile, tokens }) => {
    // Each operation verifies the bearer on its own: user details refusing a forged token says nothing of this one.
    const fixture = withdrawalFixture(profile, check);
    const forged = tamperPayload(await tokens.current());
    const res = await postWithdrawalAddress(http, { bearer: forged, userId: fixture.userId, json: freshBody(fixture), label: 'create with a forged access token' });
    check.expectUnauthorized(res, 'creating a withdrawal address with an access token whose payload was forged under its signature', { operation: 'withdrawalAddress', effect: addressEffect(res, 'WDA-BEARER-INVALID-REJECTED') });
  },
);

/** Leaving out `field` leaves a body that is the same on every request (its only placeholder was in that field). */
function repeatsWithout(template: WithdrawalAddressRequest, field: string): boolean {
  const { [field]: _left, ...rest } = template;
  return variesPerRequest(template) && !variesPerRequest(rest);
}

type BadRequest = Pick<PostOptions, 'json' | 'body' | 'contentType'>;
/** A request built from a fresh fill of the profile's body, so no two requests send one address. */
type BadCase = [what: string, build: (body: WithdrawalAddressRequest) => BadRequest];

/** Bodies that are not JSON at all. */
const UNREADABLE_BODIES: BadCase[] = [
  ['an empty body', () => ({ body: '', contentType: 'application/json' })],
  ['malformed JSON', (body) => ({ body: JSON.stringify(body).slice(0, -7), contentType: 'application/json' })],
  ['a form-encoded body', (body) => ({ body: new URLSearchParams(body as Record<string, string>).toString(), contentType: 'application/x-www-form-urlencoded' })],
];

/** JSON bodies with a parameter error: a wrong type, a malformed UUID, no object at all. */
const PARAMETER_ERROR_BODIES: BadCase[] = [
  ['a JSON array', (body) => ({ json: [body] })],
  ['JSON null', () => ({ body: 'null', contentType: 'application/json' })],
  ['user_owned as a string', (body) => ({ json: { ...body, user_owned: String(body.user_owned ?? false) } })],
  ['address as a number', (body) => ({ json: { ...body, address: 12345 } })],
  ['coin_network_id as a number', (body) => ({ json: { ...body, coin_network_id: 42 } })],
  ['a malformed coin_network_id', (body) => ({ json: { ...body, coin_network_id: 'not-a-uuid' } })],
  ['a malformed host_id', (body) => ({ json: { ...body, host_id: '1234-5678' } })],
  ['host_name as an object', (body) => ({ json: { ...body, host_name: { name: body.host_name ?? 'x' } } })],
];

defineCheck(
  {
    id: 'crypto-transfers.invalid-bodies-rejected',
    title: 'Empty, non-JSON, wrongly typed bodies and malformed UUIDs never store an address with a 5xx, nor get a 2xx that contradicts 2.3',
    requirements: ['WDA-INVALID-BODY-REJECTED'],
  },
  async ({ check, http, profile, tokens }) => {
    const fixture = withdrawalFixture(profile, check);
    const bearer = tokens;
    const answers: InvalidBodyAnswer[] = [];
    for (const [what, build] of [...UNREADABLE_BODIES, ...PARAMETER_ERROR_BODIES]) {
      const res = await postWithdrawalAddress(http, { bearer, userId: fixture.userId, ...build(freshBody(fixture)), label: `create with ${what}` });
      // A 2xx answer's body is held to 2.3 (invalidBodiesNotTaken); the rest need only their status.
      const body = isSuccess(res.status) ? (res.json !== undefined ? { json: res.json } : res.jsonError !== undefined ? { jsonError: res.jsonError } : {}) : {};
      answers.push({ what, status: res.status, ...(res.exchangeId !== undefined ? { exchange: res.exchangeId } : {}), ...body });
      // Which 4xx is the concern of crypto-transfers.parameter-error-code.
      if (isServerError(res.status)) {
        check.serverError(res, { operation: 'withdrawalAddress', what: `creating a withdrawal address with ${what}`, effect: addressEffect(res, 'WDA-INVALID-BODY-REJECTED') });
      }
    }
    check.judge(invalidBodiesNotTaken, { answers });
  },
);

defineCheck(
  {
    id: 'crypto-transfers.parameter-error-code',
    title: 'Body parameter errors that are refused are answered 422 (or 400)',
    requirements: ['WDA-PARAMETER-ERROR-CODE'],
  },
  async ({ check, http, profile, tokens }) => {
    const fixture = withdrawalFixture(profile, check);
    const bearer = tokens;
    const answers: Array<{ what: string; status: number }> = [];
    for (const [what, build] of PARAMETER_ERROR_BODIES) {
      const res: HttpResponse = await postWithdrawalAddress(http, { bearer, userId: fixture.userId, ...build(freshBody(fixture)), label: `create with ${what}` });
      answers.push({ what, status: res.status });
    }
    check.judge(parameterErrorCodes, { answers });
  },
);

defineCheck(
  {
    id: 'crypto-transfers.required-fields-review',
    title: 'Which body fields are required is recorded; leaving one out never causes a 5xx',
    requirements: ['WDA-REQUIRED-FIELDS'],
  },
  async ({ check, http, profile, tokens }) => {
    const fixture = withdrawalFixture(profile, check);
    const bearer = tokens;
    const answers: LeftOutAnswer[] = [];
    for (const field of REQUEST_FIELDS.filter((f) => fixture.template[f] !== undefined)) {
      const { [field]: _left, ...rest } = freshBody(fixture);
      const res = await postWithdrawalAddress(http, { bearer, userId: fixture.userId, json: rest, label: `create without ${field}` });
      answers.push({ field, status: res.status, ...(repeatsWithout(fixture.template, field) ? { repeats: true } : {}) });
    }
    check.judge(requiredFields, { answers });
  },
);
