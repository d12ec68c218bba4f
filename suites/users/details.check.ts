// The 200 answer of user details v2 for an existing user (spec 4.2, 2.2).
import { defineCheck } from '../../src/check/index.ts';
import { ISO_8601_WITH_OFFSET, USER_DETAILS_SCHEMA, existingUserId, getUser, impossibleTimestamp } from './support.ts';

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
    check.expectStatus(res, 200, 'GET user details of users.existingUserId');
    const id = (res.json as { data?: { id?: unknown } } | undefined)?.data?.id;
    // Left out: a WARN like any listed field (the details-schema check says so); another type: 2.2 types id as a string.
    if (id === undefined || id === null) return check.warn('data.id is left out, so the user cannot be matched with the requested id');
    if (typeof id !== 'string') return check.fail(`data.id is ${typeof id}, expected the requested user id`, { actual: id });
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
    check.expectStatus(res, 200, 'GET user details of users.existingUserId');
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
    check.expectStatus(res, 200, 'GET user details of users.existingUserId');
    const value = (res.json as { data?: { registered_at?: unknown } } | undefined)?.data?.registered_at;
    if (value === undefined || value === null) return check.warn('registered_at is left out, so its format cannot be checked');
    if (typeof value !== 'string') return check.fail(`registered_at is ${typeof value}, expected an ISO 8601 string`, { actual: value });
    if (!ISO_8601_WITH_OFFSET.test(value)) {
      return check.fail(`registered_at "${value}" is not an ISO 8601 timestamp with a UTC offset (e.g. 2024-01-01T09:30:00Z or …+02:00)`, { actual: value });
    }
    const impossible = impossibleTimestamp(value);
    if (impossible) check.fail(`registered_at "${value}" is not a real date and time (${impossible})`, { actual: value });
  },
);
