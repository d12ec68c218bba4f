// The JSON schemas of the API's path parameters and bodies, checked by
// Fastify (ajv) before a handler runs: an id outside its pattern is a 400,
// so no parameter can name a file outside the store.
import { ID_PATTERN, IMPLEMENTATION_ID_PATTERN } from '../store/layout.ts';
import { SHARE_ID_PATTERN } from '../shares.ts';
import { PROFILE_TEXT_MAX_CHARS } from '../contract.ts';
import { PRESETS } from '../../init/preset-names.ts';
import { TICKET_KINDS } from '../tickets.ts';

export const runIdParams = {
  type: 'object',
  required: ['id'],
  additionalProperties: false,
  properties: { id: { type: 'string', pattern: ID_PATTERN } },
} as const;

/** A run and one of its share links, by the link's public id (never its token). */
export const shareParams = {
  type: 'object',
  required: ['id', 'shareId'],
  additionalProperties: false,
  properties: { id: { type: 'string', pattern: ID_PATTERN }, shareId: { type: 'string', pattern: SHARE_ID_PATTERN } },
} as const;

/** A new share link: it expires after this many days, or lives until revoked. */
export const shareBody = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: { expiresInDays: { type: 'integer', minimum: 1, maximum: 366 } },
} as const;

export const compareParams = {
  type: 'object',
  required: ['id', 'baseline'],
  additionalProperties: false,
  properties: { id: { type: 'string', pattern: ID_PATTERN }, baseline: { type: 'string', pattern: ID_PATTERN } },
} as const;

export const implementationIdParams = {
  type: 'object',
  required: ['id'],
  additionalProperties: false,
  properties: { id: { type: 'string', pattern: IMPLEMENTATION_ID_PATTERN } },
} as const;

export const runListQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { implementation: { type: 'string', pattern: IMPLEMENTATION_ID_PATTERN } },
} as const;

/** The stored runs to judge again: every one, or one implementation's. */
export const rejudgePreviewQuery = runListQuery;

/** A nonce travels in a header: visible ASCII, at most 200 characters (as `ptas run --nonce`). */
const NONCE_PATTERN = '^[!-~]{1,200}$';

/** One-run secrets (a run's, and Check's): the client secret of a profile that leaves it out, and the values of its env: references, by name; never stored. */
const oneRunSecrets = {
  type: 'object',
  additionalProperties: false,
  properties: {
    clientSecret: { type: 'string', minLength: 1, maxLength: 4096 },
    env: {
      type: 'object',
      maxProperties: 64,
      propertyNames: { pattern: '^[A-Za-z_][A-Za-z0-9_]{0,127}$' },
      additionalProperties: { type: 'string', minLength: 1, maxLength: 4096 },
    },
  },
} as const;

const profileText = { type: 'string', maxLength: PROFILE_TEXT_MAX_CHARS } as const;

export const startRunBody = {
  type: 'object',
  required: ['implementation'],
  additionalProperties: false,
  properties: {
    implementation: { type: 'string', pattern: IMPLEMENTATION_ID_PATTERN },
    options: {
      type: 'object',
      additionalProperties: false,
      properties: {
        load: { type: 'boolean' },
        explore: { type: 'integer', minimum: 1, maximum: 600 },
        grep: { type: 'string', minLength: 1, maxLength: 500 },
        nonce: { type: 'string', pattern: NONCE_PATTERN },
        waivers: { type: 'object' },
        rerunOf: { type: 'string', pattern: ID_PATTERN },
      },
    },
    secrets: oneRunSecrets,
  },
} as const;

/** POST /api/doctor: Check on a profile text, with the one-run secrets a run would take. */
export const doctorBody = {
  type: 'object',
  required: ['profileText'],
  additionalProperties: false,
  properties: { profileText, secrets: oneRunSecrets },
} as const;

/** GET /api/starter: a preset for a reference at a base URL (as long as a profile's may be; whether it can be used is the services' to say, 400). */
export const starterQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { preset: { type: 'string', enum: PRESETS }, baseUrl: { type: 'string', maxLength: 2048 } },
} as const;

/** POST /api/runs/:id/tickets: a one-use URL of the run's report or its bundle. */
export const ticketBody = {
  type: 'object',
  required: ['kind'],
  additionalProperties: false,
  properties: { kind: { type: 'string', enum: TICKET_KINDS } },
} as const;

export const implementationBody = {
  type: 'object',
  required: ['name', 'profileText'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200 },
    profileText,
  },
} as const;

/** GET /api/audit: the latest entries, at most this many. */
export const auditQuery = {
  type: 'object',
  additionalProperties: false,
  // A query's values are strings (the server coerces no types): a number of 1 to 10000 written out.
  properties: { limit: { type: 'string', pattern: '^(?:[1-9][0-9]{0,3}|10000)$' } },
} as const;

/** A reviewer's decision on a REVIEW check (app/serve/reviews.ts). */
export const reviewBody = {
  type: 'object',
  required: ['check', 'decision', 'note'],
  additionalProperties: false,
  properties: {
    check: { type: 'string', minLength: 1, maxLength: 200 },
    target: { type: 'string', minLength: 1, maxLength: 200 },
    decision: { type: 'string', enum: ['accepted', 'rejected'] },
    note: { type: 'string', maxLength: 4000 },
  },
} as const;
