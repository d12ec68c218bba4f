// Judgments of the user a 200 answer of user details v2 describes (spec 2.2,
// 4.2): whether it is the user the path names, and whether its registered_at
// has a UTC offset. Each reads what data was (describeData: 'object' when it
// is a user object) and the one field it judges, never the whole body: whether
// the body is the user of 2.2 is users.details-schema's to judge, so a body
// without a user object here is a WARN that says so.
import { answeredWith, defineJudgment } from '../../src/check/judgments.ts';
import { judgeTimestamp } from '../../src/check/timestamp-field.ts';
import { REGISTERED_AT } from './support.ts';

export interface RequestedUserInput {
  /** The user id the path named (users.existingUserId). */
  requested: string;
  /** What data was: 'object' for a user object, else describeData's words ("null", "left out", "an array"). */
  data: string;
  /** data.id, left out when data is no object or has none. */
  id?: unknown;
}

/** users.details-is-requested-user: data.id is the requested id. */
export const requestedUser = defineJudgment<RequestedUserInput>('users.details-names-requested-user', (input, says) => {
  // No user object, or no id in it: nothing to match, and users.details-schema FAILs the body on 4.2 and 2.2.
  if (input.data !== 'object') return says.warn(`data is ${input.data}, not a user object, so no user can be matched with the requested id (users.details-schema judges the body)`);
  const { id } = input;
  if (id === undefined || id === null) return says.warn(`data.id is ${id === null ? 'null' : 'left out'}, so the user cannot be matched with the requested id (users.details-schema judges the body)`);
  if (typeof id !== 'string') return says.fail(`data.id is ${typeof id}, expected the requested user id`, { actual: id }, { on: 'SPEC-2-2-ID' });
  // UUIDs compare case-insensitively (RFC 9562, 4).
  if (id.toLowerCase() !== input.requested.toLowerCase()) says.fail(`asked for user ${input.requested}, got data.id ${id}`, { expected: input.requested, actual: id });
});

export interface RegisteredAtInput {
  /** What data was: 'object' for a user object, else describeData's words. */
  data: string;
  /** data.registered_at, left out when it is (or there is no user object). */
  registeredAt?: unknown;
  status: number;
  exchange?: number;
}

/** users.registered-at-has-offset: registered_at by the one reading of "ISO 8601 timestamp with UTC offset" (src/check/timestamp-field.ts). */
export const registeredAtOffset = defineJudgment<RegisteredAtInput>('users.registered-at-offset', (input, says) => {
  if (input.data !== 'object') return says.warn(`data is ${input.data}, not a user object, so registered_at cannot be checked (users.details-schema judges the body)`);
  const value = input.registeredAt;
  const judged = judgeTimestamp(REGISTERED_AT, value);
  const observed = answeredWith(input.status, input.exchange);
  // The claims expectTimestamp makes, with the exchange in their details.
  if (judged.verdict === 'FAIL') return says.fail(judged.message, { [REGISTERED_AT.name]: value, exchange: input.exchange }, { observed });
  if (judged.verdict === 'WARN') says.warn(judged.message, { [REGISTERED_AT.name]: value ?? null, exchange: input.exchange }, { observed });
});
