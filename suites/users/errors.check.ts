// User details v2 refusals: unknown and malformed ids, missing or invalid
// bearer, and hostile input that must never cause a 5xx (spec 4.2, 5, 7).
import { defineCheck, isServerError, TransportError, type HttpResponse } from '../../src/check/index.ts';
import type { JourneyQuery } from '../../src/config/sections/users.ts';
import { DOCUMENTED_CLIENT_ERRORS, existingUserId, userPath } from './support.ts';

defineCheck(
  {
    id: 'users.unknown-user-404',
    title: 'User details of an unknown (well-formed) user id answer 404',
    area: 'users',
    requirements: ['USERS-NOT-FOUND-404'],
    severity: 'MUST',
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
    area: 'users',
    requirements: ['USERS-MALFORMED-ID-REJECTED'],
    severity: 'MUST',
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
      check.expectRejected(res, `a user id that is ${what}`, DOCUMENTED_CLIENT_ERRORS);
    }
  },
);

defineCheck(
  {
    id: 'users.bearer-required',
    title: 'User details without a valid bearer credential answer 401',
    area: 'users',
    requirements: ['USERS-BEARER-REQUIRED'],
    severity: 'MUST',
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
      check.expectStatus(res, 401, `GET user details with ${what}`);
    }
  },
);

/** Query and header abuse; the status only has to be a 4xx (or a 200 where the input is merely ignored). */
function hostileRequests(): Array<{ what: string; query?: JourneyQuery; headers?: Record<string, string> }> {
  return [
    { what: 'user_flow given twice', query: { user_flow: ['onboard', 'stake'] } },
    { what: 'an empty user_flow', query: { user_flow: '' } },
    { what: 'an empty user_journey[]', query: { 'user_journey[]': '' } },
    { what: '200 distinct user_journey[] values', query: { 'user_journey[]': Array.from({ length: 200 }, (_, i) => `journey-${i}`) } },
    { what: 'a 4,000-character user_flow', query: { user_flow: 'x'.repeat(4000) } },
    { what: 'user_flow holding a NUL byte and an emoji', query: { user_flow: '\u0000onboard\u{1F600}' } },
    { what: 'asset_group given twice', query: { user_flow: 'trade_buy', asset_group: ['a', 'b'] } },
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
    area: 'users',
    requirements: ['USERS-NO-SERVER-ERROR-ON-BAD-INPUT'],
    severity: 'MUST',
  },
  async ({ check, http, profile, tokens }) => {
    const path = userPath(existingUserId(profile, check));
    const problems: string[] = [];
    for (const { what, query, headers } of hostileRequests()) {
      let res: HttpResponse;
      try {
        res = await http.get(path, { bearer: await tokens.get(), query, headers, label: `user details with ${what}` });
      } catch (error) {
        if (!(error instanceof TransportError)) throw error;
        problems.push(`${what}: no response (${error.code})`);
        continue;
      }
      if (isServerError(res.status)) problems.push(`${what} caused ${res.status}`);
      else check.note(`${what} → ${res.status}`);
    }
    if (problems.length) check.fail(problems.join('; '), { problems });
  },
);
