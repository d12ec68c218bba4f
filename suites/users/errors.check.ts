// User details v2 refusals: unknown and malformed ids, missing or invalid
// bearer, and hostile input that must never cause a 5xx (spec 4.2, 5, 7).
import { defineCheck, isServerError, isSuccess, TransportError, type CheckContext, type HttpClient, type HttpResponse } from '../../runner/index.ts';
import { TransientAnswerError } from '../../src/http/transient.ts';
import type { JourneyQuery } from '../../src/config/sections/users.ts';
import { GET_EXECUTES_NOTHING } from '../../src/check/server-error.ts';
import { RESPONSE_200, USER_DETAILS_SCHEMA, existingUserId, userPath } from './support.ts';
import type { Bearer } from '../../src/http/outgoing.ts';
import { hostileInputAccepted, type Leniency } from './journey-judgments.ts';

defineCheck(
  {
    id: 'users.unknown-user-404',
    title: 'User details of an unknown (well-formed) user id answer 404',
    requirements: ['USERS-NOT-FOUND-404'],
  },
  async ({ check, http, tokens }) => {
    // Random version-4 UUIDs: the chance of naming a real user is nil.
    for (const id of [crypto.randomUUID(), crypto.randomUUID()]) {
      const res = await http.get(userPath(id), { bearer: tokens, label: 'user details of a random UUID' });
      check.expectStatus(res, 404, `GET user details of unknown user ${id}`);
    }
  },
);

/**
 * Malformed user ids. The first five are misuse within the operation's
 * domain (a string where a user id goes); the rest are hostile probes the
 * suite makes up ('invented'): a proxy or WAF in front of the service may
 * answer them itself, so a code outside 7's list to them is at most a WARN.
 */
function malformedIds(): Array<{ what: string; id: string; input?: 'invented' }> {
  const uuid = crypto.randomUUID();
  return [
    { what: 'a word', id: 'not-a-uuid' },
    { what: 'a number', id: '12345' },
    { what: 'a UUID with a suffix', id: `${uuid}-extra` },
    { what: 'a UUID without dashes', id: uuid.replaceAll('-', '') },
    { what: 'a UUID with non-hex digits', id: uuid.replace(/[0-9a-f]$/, 'z') },
    { what: 'a 2,000-character id', id: 'a'.repeat(2000), input: 'invented' },
    { what: 'an SQL fragment', id: "' OR '1'='1", input: 'invented' },
    { what: 'a NUL byte', id: '\u0000', input: 'invented' },
    { what: 'a path traversal', id: '../../etc/passwd', input: 'invented' },
  ];
}

defineCheck(
  {
    id: 'users.malformed-id-rejected',
    title: 'User details of a malformed user id are refused with a 4xx',
    requirements: ['USERS-MALFORMED-ID-REJECTED'],
  },
  async ({ check, http, tokens }) => {
    for (const { what, id, input } of malformedIds()) {
      const res = await http.get(userPath(id), { bearer: tokens, label: `user details of ${what}`, ...(input ? { input } : {}) });
      // A 2xx rests on the requirement's sentence, a 5xx on 7's row for the operation (src/check/server-error.ts).
      check.expectRefused(res, { operation: 'userDetails', what: `a user id that is ${what}`, effect: GET_EXECUTES_NOTHING, ...(input ? { input } : {}) });
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
      check.expectUnauthorized(res, `GET user details with ${what}`, { operation: 'userDetails', effect: GET_EXECUTES_NOTHING });
    }
  },
);

interface HostileRequest {
  what: string;
  query?: JourneyQuery;
  headers?: Record<string, string>;
  leniency: Leniency;
  /** A probe the suite made up outside the operation's domain (src/check/outcome.ts, rule 4). */
  input?: 'invented';
}

/** Misuse within the operation's domain: the normal rules hold (a 5xx FAILs on 7's row). */
function misuse(): HostileRequest[] {
  return [
    { what: 'user_flow given twice', query: { user_flow: ['onboard', 'stake'] }, leniency: 'one-of-repeated' },
    { what: 'an empty user_flow', query: { user_flow: '' }, leniency: 'empty-value' },
    { what: 'an empty user_journey[]', query: { 'user_journey[]': '' }, leniency: 'ignorable' },
    { what: '200 distinct user_journey[] values', query: { 'user_journey[]': Array.from({ length: 200 }, (_, i) => `journey-${i}`) }, leniency: 'ignorable' },
    { what: 'asset_group given twice', query: { user_flow: 'trade_buy', asset_group: ['a', 'b'] }, leniency: 'one-of-repeated' },
    { what: 'user_flow in array form (user_flow[])', query: { 'user_flow[]': 'onboard' }, leniency: 'ignorable' },
    { what: 'user_journey without brackets', query: { user_journey: 'onboarding' }, leniency: 'ignorable' },
    { what: 'asset groups without user_flow', query: { source_asset_group: 'a', target_asset_group: 'b' }, leniency: 'ignorable' },
  ];
}

/** Hostile probes the suite invents (huge values, NUL bytes, malformed headers): an intermediary may answer them before the service does. */
function inventedProbes(): HostileRequest[] {
  return [
    { what: 'a 4,000-character user_flow', query: { user_flow: 'x'.repeat(4000) }, leniency: 'unknown-flow', input: 'invented' },
    { what: 'user_flow holding a NUL byte and an emoji', query: { user_flow: '\u0000onboard\u{1F600}' }, leniency: 'unknown-flow', input: 'invented' },
    { what: 'a 20 kB query string', query: { filler: 'f'.repeat(20_000) }, leniency: 'ignorable', input: 'invented' },
    { what: 'a malformed Accept-Language', headers: { 'accept-language': ';;q=abc,,*-*;q=9, ' + 'x'.repeat(1000) }, leniency: 'ignorable', input: 'invented' },
  ];
}

/** The answer, or undefined when none came (recorded: a dropped connection is a WARN, a still-transient answer not observed). */
async function send(check: CheckContext, http: HttpClient, bearer: Bearer, path: string, request: HostileRequest): Promise<HttpResponse | undefined> {
  const { what, query, headers, input } = request;
  try {
    return await http.get(path, { bearer, query, headers, label: `user details with ${what}`, ...(input ? { input } : {}) });
  } catch (error) {
    // Still 429/503 after the client's retries: this probe was not observed (ERROR), the others are still judged.
    if (error instanceof TransientAnswerError) check.warn(`${what}: ${error.message}`, { exchange: error.exchangeId });
    // Not a status at all; the spec says nothing about closing a connection on abusive input.
    else if (error instanceof TransportError) check.warn(`${what}: no response (${error.kind})`, { code: error.kind });
    else throw error;
    return undefined;
  }
}

defineCheck(
  {
    id: 'users.bad-input-no-server-error',
    title: 'Hostile query parameters and headers on user details never cause a 5xx',
    requirements: ['USERS-NO-SERVER-ERROR-ON-BAD-INPUT'],
  },
  async ({ check, http, profile, tokens }) => {
    // One rule for input leniency: a 5xx FAILs on 7's row for the operation
    // (src/check/server-error.ts; at most WARN for an invented probe, which an
    // intermediary may have answered: src/check/outcome.ts, rule 4); a 200 is
    // held to 2.2 and then weighed by hostileInputAccepted.
    const path = userPath(existingUserId(profile, check));
    for (const request of [...misuse(), ...inventedProbes()]) {
      const res = await send(check, http, tokens, path, request);
      if (!res) continue;
      if (isServerError(res.status)) {
        check.serverError(res, { operation: 'userDetails', what: `user details with ${request.what}`, effect: GET_EXECUTES_NOTHING, ...(request.input ? { input: request.input } : {}) });
      } else if (isSuccess(res.status)) {
        check.expectSchema(res, USER_DETAILS_SCHEMA, `the answer to user details with ${request.what}`, { on: RESPONSE_200 });
        check.judge(hostileInputAccepted, { what: request.what, leniency: request.leniency, status: res.status, ...(res.exchangeId !== undefined ? { exchange: res.exchangeId } : {}) });
      } else check.note(`${request.what} → ${res.status}`);
    }
  },
);
