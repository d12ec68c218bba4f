// Legitimate variants of user details v2 (spec 4.2, 2.2, 7): answers the
// spec allows that the reference does not give by default. Switched on in
// reference/routes/users.ts and reference/users/journey-context.ts by
// ctx.variants.has(name).
import type { Variant } from './types.ts';

export const usersVariants: Variant[] = [
  {
    name: 'journey-errors-400',
    area: 'users',
    description: 'Journey-parameter violations (both ways given, unknown user_flow, missing or unwanted asset groups) are answered 400 bad request instead of 422.',
    allowedBy:
      '7 lists "400 (bad request)" and "422 (parameter error)" for user details v2 and says "the condition that causes 400 ... : not shown"; a rule violation is a bad request as much as a parameter error.',
  },
  {
    name: 'malformed-user-id-404',
    area: 'users',
    description: 'A User-ID that is not a UUID is answered 404 record not found instead of 422.',
    allowedBy: '7: "404 is named record not found" and 404 is in the list of user details v2; no user has an id of that shape, so no record is found. Which code refuses a malformed id is not shown.',
  },
  {
    name: 'own-licence-not-found',
    area: 'users',
    description: 'The own-licence partner is answered 404 record not found instead of 403; the profile documents 404 as users.ownLicence.restrictedStatus.',
    allowedBy: '4.2 rule 7: "For partners that run the service under their own licence, this operation is restricted." What the restriction looks like is not shown; 404 is in the list of user details v2 (7).',
    adjustProfile: (profile) =>
      profile.users?.ownLicence ? { ...profile, users: { ...profile.users, ownLicence: { ...profile.users.ownLicence, restrictedStatus: 404 } } } : profile,
  },
  {
    name: 'asset-groups-without-flow-ignored',
    area: 'users',
    description: 'asset_group, source_asset_group and target_asset_group sent without user_flow (alone or with user_journey[]) are ignored instead of refused.',
    allowedBy: '4.2 rules 3-5 say which asset groups each user_flow requires or takes; what the service does with asset groups sent without any user_flow is not shown.',
  },
  {
    name: 'registered-at-offset',
    area: 'users',
    description: 'registered_at is written at the offset +02:00 for every user (2024-01-01T11:30:00+02:00), not Z.',
    allowedBy: '2.2: registered_at is an "ISO 8601 timestamp with UTC offset"; which offset is not shown.',
  },
  {
    name: 'registered-at-fractional-seconds',
    area: 'users',
    description: 'registered_at carries milliseconds (2024-01-01T09:30:00.000Z).',
    allowedBy: '2.2: "ISO 8601 timestamp with UTC offset"; ISO 8601 allows a decimal fraction of the seconds, and no precision is shown.',
  },
  {
    name: 'terms-descending',
    area: 'users',
    description: 'terms_not_accepted lists the term ids in descending order.',
    allowedBy: '2.2: terms_not_accepted is an "array of integer", "Identifiers of the terms and conditions the user has not yet accepted"; no order is shown.',
  },
  {
    name: 'repeated-parameter-last-wins',
    area: 'users',
    description:
      'A single-valued query parameter given more than once (user_flow=onboard&user_flow=stake, asset_group twice) is read as its last value, as many web frameworks do, instead of being refused.',
    allowedBy:
      '4.2 types user_flow and the asset groups as "(string)" and user_journey[] as "(array, repeatable)", but says nothing of a single-valued parameter given twice; the value taken is one of the eight of rule 2, so the answer contradicts no rule.',
  },
  {
    name: 'content-language',
    area: 'users',
    description:
      'Content-Language is sent only in answer to an Accept-Language header, and names the matching language tag as the client wrote it (Accept-Language: de-DE, en;q=0.5 → Content-Language: de-DE); without Accept-Language there is none.',
    allowedBy: '4.2: "Header parameter: Accept-Language." and "the allowed values of Accept-Language: not shown"; the spec shows no response header for the language at all.',
  },
];
