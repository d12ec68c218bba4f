// User details v2 refusals: unknown and malformed ids, missing or invalid
// bearer, and hostile input that must never cause a 5xx (spec 4.2, 5, 7).
import { defineCheck, isServerError, isSuccess, TransportError, type HttpResponse } from '../../src/check/index.ts';
import type { JourneyQuery } from '../../src/config/sections/users.ts';
import { USER_DETAILS_SCHEMA, existingUserId, userPath } from './support.ts';

defineCheck(
  {
    id: 'users.unknown-user-404',
    title: 'User details of an unknown (well-formed) user id answer 404',
    requirements: ['USERS-NOT-FOUND-404'],
  },
  async ({ check, http, tokens }) => {
    // Random version-4 UUIDs: the chance of naming a real user is nil.
    for (const id of [crypto.randomUUID(), crypto.randomUUID()]) {
      const res = await http.get(userPath(id), { bearer: await tokens.get(), label: 'user details of a random UUID' });
      check.expectStatus(res, 404, `GET user details of unknown user ${id}`);
    }
  },
);

defineCheck(
  {
    id: 'users.malformed-id-rejected',
    title: 'User details of a malformed user id are refused with a 4xx',
    requirements: ['USERS-MALFORMED-ID-REJECTED'],
  },
  async ({ check, http, tokens }) => {
    const uuid = crypto.randomUUID();
    const cases: Array<[string, string]> = [
      ['a word', 'not-a-uuid'],
      ['a number', '12345'],
      ['a UUID with a suffix', `${uuid}-extra`],
      ['a UUID without dashes', uuid.replaceAll('-', '')],
      ['a UUID with non-hex digits', uuid.replace(/[0-9a-f]$/, 'z')],
      ['a 2,000-character id', 'a'.repeat(2000)],
      ['an SQL fragment', "' OR '1'='1"],
      ['a NUL byte', '\u0000'],
      ['a path traversal', '../../etc/passwd'],
    ];
    for (const [what, id] of cases) {
      const res = await http.get(userPath(id), { bearer: await tokens.get(), label: `user details of ${what}` });
      check.expectRefused(res, { operation: 'userDetails', what: `a user id that is ${what}` });
    }
  },
);

defineCheck(
  {
    id: 'users.bearer-required',
    title: 'User details without a valid bearer credential are refused (401 expected)',
    requirements: ['USERS-BEARER-REQUIRED'],
  },
  async ({ check, http, profile }) => {
    const path = userPath(existingUserId(profile, check));
    const cases: Array<[string, Record<string, string>]> = [
      ['no Authorization header', {}],
      ['a garbage bearer token', { authorization: `Bearer garbage-${crypto.randomUUID()}` }],
      ['Basic instead of Bearer', { authorization: `Basic ${Buffer.from('someone:something').toString('base64')}` }],
    ];
    for (const [what, headers] of cases) {
      const res = await http.get(path, { headers, label: `user details with ${what}` });
      check.expectUnauthorized(res, `GET user details with ${what}`);
    }
  },
);

/**
 * Query and header abuse. `typedOtherwise`: the input contradicts what 4.2
 * says of the parameter (user_flow and the asset groups are single strings,
 * user_flow takes one of eight values), so accepting it is a WARN; the rest
 * is input the spec says nothing about, which a service may ignore (200).
 */
function hostileRequests(): Array<{ what: string; query?: JourneyQuery; headers?: Record<string, string>; typedOtherwise?: true }> {
  return [
    { what: 'user_flow given twice', query: { user_flow: ['onboard', 'stake'] }, typedOtherwise: true },
    { what: 'an empty user_flow', query: { user_flow: '' }, typedOtherwise: true },
    { what: 'an empty user_journey[]', query: { 'user_journey[]': '' } },
    { what: '200 distinct user_journey[] values', query: { 'user_journey[]': Array.from({ length: 200 }, (_, i) => `journey-${i}`) } },
    { what: 'a 4,000-character user_flow', query: { user_flow: 'x'.repeat(4000) }, typedOtherwise: true },
    { what: 'user_flow holding a NUL byte and an emoji', query: { user_flow: '\u0000onboard\u{1F600}' }, typedOtherwise: true },
    { what: 'asset_group given twice', query: { user_flow: 'trade_buy', asset_group: ['a', 'b'] }, typedOtherwise: true },
    { what: 'user_flow in array form (user_flow[])', query: { 'user_flow[]': 'onboard' } },
    { what: 'user_journey without brackets', query: { user_journey: 'onboarding' } },
    { what: 'asset groups without user_flow', query: { source_asset_group: 'a', target_asset_group: 'b' } },
    { what: 'a 20 kB query string', query: { filler: 'f'.repeat(20_000) } },
    { what: 'a malformed Accept-Language', headers: { 'accept-language': ';;q=abc,,*-*;q=9, ' + 'x'.repeat(1000) } },
  ];
}

defineCheck(
  {
    id: 'users.bad-input-no-server-error',
    title: 'Hostile query parameters and headers on user details never cause a 5xx',
    requirements: ['USERS-NO-SERVER-ERROR-ON-BAD-INPUT'],
  },
  async ({ check, http, profile, tokens }) => {
    // One rule for input leniency: a 5xx FAILs; accepting input the spec
    // types otherwise is a WARN, and a FAIL only when the 200 it gets
    // contradicts the spec itself (the 2.2 schema).
    const path = userPath(existingUserId(profile, check));
    const serverErrors: string[] = [];
    for (const { what, query, headers, typedOtherwise } of hostileRequests()) {
      let res: HttpResponse;
      try {
        res = await http.get(path, { bearer: await tokens.get(), query, headers, label: `user details with ${what}` });
      } catch (error) {
        if (!(error instanceof TransportError)) throw error;
        // Not a status at all; the spec says nothing about closing a connection on abusive input.
        check.warn(`${what}: no response (${error.kind})`, { code: error.kind });
        continue;
      }
      if (isServerError(res.status)) serverErrors.push(`${what} caused ${res.status}`);
      else if (isSuccess(res.status)) {
        check.expectSchema(res, USER_DETAILS_SCHEMA, `the answer to user details with ${what}`);
        if (typedOtherwise) check.warn(`user details with ${what} was accepted (${res.status}); 4.2 describes the parameter otherwise`, { actual: res.status });
        else check.note(`${what} → ${res.status}`);
      } else check.note(`${what} → ${res.status}`);
    }
    if (serverErrors.length) check.fail(serverErrors.join('; '), { problems: serverErrors });
  },
);
