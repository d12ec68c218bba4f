// The 200 answer of user details v2 for an existing user (spec 4.2, 2.2).
import { defineCheck } from '../../runner/index.ts';
import { expectTimestamp } from '../../src/check/timestamp-field.ts';
import { REGISTERED_AT, USER_DETAILS_SCHEMA, describeData, existingUserId, expectUserServed, getUser, userOf } from './support.ts';

defineCheck(
  {
    id: 'users.details-schema',
    title: 'User details of an existing user answer 200 with {data: user} matching 2.2',
    requirements: ['USERS-DETAILS-SCHEMA'],
  },
  async ({ check, http, profile, tokens }) => {
    const userId = existingUserId(profile, check);
    const res = await getUser({ http, tokens, userId, label: 'user details of the fixture user' });
    check.expectStatus(res, 200, 'GET user details of users.existingUserId');
    check.expectSchema(res, USER_DETAILS_SCHEMA, 'user details');
  },
);

defineCheck(
  {
    id: 'users.details-is-requested-user',
    title: 'User details describe the user the path names',
    requirements: ['USERS-RETURNS-REQUESTED-USER'],
  },
  async ({ check, http, profile, tokens }) => {
    const userId = existingUserId(profile, check);
    const res = await getUser({ http, tokens, userId, label: 'user details of the fixture user' });
    expectUserServed(check, res, 'GET user details of users.existingUserId');
    const user = userOf(res);
    // No user object, or no id in it: nothing to match, and users.details-schema FAILs the body on 4.2 and 2.2.
    if (!user) return check.warn(`data is ${describeData(res)}, not a user object, so no user can be matched with the requested id (users.details-schema judges the body)`);
    const id = user.id;
    if (id === undefined || id === null) return check.warn(`data.id is ${id === null ? 'null' : 'left out'}, so the user cannot be matched with the requested id (users.details-schema judges the body)`);
    if (typeof id !== 'string') return check.fail(`data.id is ${typeof id}, expected the requested user id`, { actual: id }, { on: 'SPEC-2-2-ID' });
    // UUIDs compare case-insensitively (RFC 9562, 4).
    if (id.toLowerCase() !== userId.toLowerCase()) {
      check.fail(`asked for user ${userId}, got data.id ${id}`, { expected: userId, actual: id });
    }
  },
);

defineCheck(
  {
    id: 'users.details-json-content-type',
    title: 'User details are labelled application/json',
    requirements: ['USERS-JSON-BODY'],
  },
  async ({ check, http, profile, tokens }) => {
    const userId = existingUserId(profile, check);
    const res = await getUser({ http, tokens, userId, label: 'user details of the fixture user' });
    expectUserServed(check, res, 'GET user details of users.existingUserId');
    check.expectJsonContentType(res, 'user details');
  },
);

defineCheck(
  {
    id: 'users.registered-at-has-offset',
    title: 'registered_at is an ISO 8601 timestamp with a UTC offset',
    requirements: ['USERS-TIMESTAMP-OFFSET'],
  },
  async ({ check, http, profile, tokens }) => {
    const userId = existingUserId(profile, check);
    const res = await getUser({ http, tokens, userId, label: 'user details of the fixture user' });
    expectUserServed(check, res, 'GET user details of users.existingUserId');
    const user = userOf(res);
    if (!user) return check.warn(`data is ${describeData(res)}, not a user object, so registered_at cannot be checked (users.details-schema judges the body)`);
    expectTimestamp(check, REGISTERED_AT, user.registered_at, { exchange: res.exchangeId });
  },
);
