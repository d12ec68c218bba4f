import type { Fault } from './types.ts';

export const cryptoTransfersFaults: Fault[] = [
  { name: 'wda-id-not-uuid', requirement: 'WDA-CREATE-SCHEMA', description: 'The created withdrawal address carries an id that is not UUID-shaped ("wa_…").' },
  { name: 'wda-content-type-text', requirement: 'WDA-JSON-BODY', description: 'A created withdrawal address is labelled Content-Type: text/plain.' },
  { name: 'wda-owner-name-not-stored', requirement: 'WDA-ECHOES-REQUEST', description: 'owner_legal_name is dropped when the address is stored and comes back empty.' },
  { name: 'wda-created-at-local-offset', requirement: 'WDA-CREATED-AT-UTC', description: 'created_at is written at UTC+02:00 instead of UTC.' },
  { name: 'wda-known-vasp-rejected', requirement: 'WDA-KNOWN-VASP', description: 'host_type KNOWN_VASP is refused with 422 as an unknown host type.' },
  { name: 'wda-user-header-optional', requirement: 'WDA-USER-HEADER-REQUIRED', description: 'Without svc-user-id the address is created for the first seeded user.' },
  { name: 'wda-unknown-user-accepted', requirement: 'WDA-UNKNOWN-USER-REJECTED', description: 'A svc-user-id naming no user gets an address book and a 200.' },
  { name: 'wda-bearer-not-required', requirement: 'WDA-BEARER-REQUIRED', description: 'Creating a withdrawal address without Authorization is let through.' },
  { name: 'wda-bearer-signature-unchecked', requirement: 'WDA-BEARER-INVALID-REJECTED', description: 'Creating a withdrawal address decodes the bearer JWT without verifying its signature, so a tampered access token is let through (user details still verifies it).' },
  { name: 'wda-malformed-uuid-accepted', requirement: 'WDA-INVALID-BODY-REJECTED', description: 'host_id is stored as sent, UUID-shaped or not: a malformed host_id is answered 200 with a host_id that contradicts 2.3 ("string, UUID shape").' },
  { name: 'wda-parameter-error-409', requirement: 'WDA-PARAMETER-ERROR-CODE', description: 'Body parameter errors are answered 409 instead of 422.' },
  { name: 'wda-omitted-field-500', requirement: 'WDA-REQUIRED-FIELDS', description: 'A body without the optional destination_tag causes a 500.' },
  {
    name: 'wda-long-owner-name-truncated',
    requirement: 'WDA-ECHOES-REQUEST',
    description: 'owner_legal_name is stored cut to its first 100 characters (a column of 100), so a longer legal name comes back truncated.',
    unnamed: "the hand-written echo check sends the profile's owner name, shorter than 100 characters",
  },
  {
    name: 'wda-non-ascii-owner-name-mangled',
    requirement: 'WDA-ECHOES-REQUEST',
    description: 'owner_legal_name is stored through a Latin-1 reading of its UTF-8 bytes, so a name beyond ASCII comes back mangled ("Jürgen" → "JÃ¼rgen").',
    unnamed: "the hand-written echo check sends the profile's owner name, which is ASCII",
  },
];
