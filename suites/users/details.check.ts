// The 200 answer of user details v2 for an existing user (spec 4.2, 2.2).
import { defineCheck } from '../../runner/index.ts';
import { USER_DETAILS_SCHEMA, describeData, existingUserId, expectUserServed, getUser, userOf } from './support.ts';
import { registeredAtOffset, requestedUser } from './body-judgments.ts';

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
    check.judge(requestedUser, { requested: userId, data: describeData(res), ...(user && user.id !== undefined ? { id: user.id } : {}) });
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
    check.judge(registeredAtOffset, {
      data: describeData(res),
      ...(user && user.registered_at !== undefined ? { registeredAt: user.registered_at } : {}),
      status: res.status,
      ...(res.exchangeId !== undefined ? { exchange: res.exchangeId } : {}),
    });
  },
);
