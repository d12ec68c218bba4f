// Shared steps of the withdrawal-address checks (spec 4.3).
//
// Every request a check sends is the profile's body filled afresh
// (src/placeholders.ts): with a generated placeholder in it (the reference's
// profile puts {uniqueDigits} in destination_tag) every create registers a
// beneficiary address of its own, so no check depends on another's data and
// an implementation that refuses a duplicate address (the spec does not
// forbid it) refuses nothing the suite sends. Every check compares what comes
// back with the values it actually sent.
import type { CheckContext } from '../../src/check/context.ts';
import { isSuccess } from '../../src/check/context.ts';
import type { HttpClient, HttpResponse } from '../../src/http/client.ts';
import type { ResolvedProfile } from '../../src/config/profile.ts';
import type { WithdrawalAddressRequest } from '../../src/config/sections/crypto-transfers.ts';
import { variesPerRequest, withFreshValues } from '../../src/placeholders.ts';
import { describeSchemaErrors, validateAgainst } from '../../src/schemas/registry.ts';
import { iso8601Problem } from '../../src/schemas/iso8601.ts';
import type { TimestampField } from '../../src/check/timestamp-field.ts';
import { effectUnknown, executed, type Effect } from '../../src/check/server-error.ts';
import type { Bearer } from '../../src/http/outgoing.ts';

export const WITHDRAWAL_ADDRESS_PATH = '/v1/crypto-transfers/addresses/withdrawals';
export const PROFILE_BODY_KEY = 'cryptoTransfers.withdrawalAddress';
export const RESPONSE_SCHEMA = 'withdrawal-address-response.schema.json';
/** 4.3 "Response 200: an object with data holding the withdrawal address of 2.3.": what a created address is answered with. */
export const RESPONSE_200 = 'SPEC-4-3-RESPONSE-200';

/** Parameter-error codes of 4.3 / 7: 400 bad request, 422 parameter error. */
export const PARAMETER_ERROR_CODES = [400, 422] as const;

/** The fields of the 4.3 request body, in the spec's order. */
export const REQUEST_FIELDS = ['coin_network_id', 'address', 'destination_tag', 'host_type', 'host_name', 'host_id', 'user_owned', 'owner_legal_name'] as const;

export interface WithdrawalFixture {
  userId: string;
  /** The profile's body, its generated placeholders not yet filled. */
  template: WithdrawalAddressRequest;
  /** The template names a generated placeholder: every fill is a new address. */
  fresh: boolean;
}

export const REPEATS_NOTE =
  `${PROFILE_BODY_KEY} names no generated placeholder, so every withdrawal-address check sends the same address: an implementation that refuses a duplicate address (the spec does not forbid it) will refuse the repeats. ` +
  'Put {uniqueDigits} in destination_tag, or {unique} in address, so every request registers a new one.';

/** The profile's user and accepted body, or SKIP naming the missing key. */
export function withdrawalFixture(profile: ResolvedProfile, check: CheckContext): WithdrawalFixture {
  const userId = check.need(profile, 'cryptoTransfers.userId', 'no user to create withdrawal addresses for');
  const template = check.need(profile, PROFILE_BODY_KEY, 'no withdrawal-address body the implementation accepts');
  const fresh = variesPerRequest(template);
  if (!fresh) check.note(REPEATS_NOTE);
  return { userId, template, fresh };
}

/** The profile's body with fresh generated values (a new address when the template has a placeholder) and {userId}. */
export function freshBody(fixture: WithdrawalFixture): WithdrawalAddressRequest {
  return withFreshValues(fixture.template, { userId: fixture.userId });
}

export interface PostOptions {
  bearer?: Bearer;
  /** Sent in the target's user-id header (svc-user-id unless the profile names another); undefined sends none. */
  userId?: string;
  json?: unknown;
  /** A raw body instead of json. */
  body?: string;
  contentType?: string;
  label: string;
}

export function postWithdrawalAddress(http: HttpClient, options: PostOptions): Promise<HttpResponse> {
  const headers: Record<string, string> = {};
  if (options.userId !== undefined) headers[http.userIdHeader] = options.userId;
  if (options.contentType) headers['content-type'] = options.contentType;
  return http.post(WITHDRAWAL_ADDRESS_PATH, { headers, json: options.json, body: options.body, bearer: options.bearer, label: options.label });
}

/** The `data` object of a 200 answer, after the status has been checked. */
export function addressOf(res: HttpResponse): Record<string, unknown> {
  const data = (res.json as { data?: unknown } | undefined)?.data;
  return data && typeof data === 'object' ? (data as Record<string, unknown>) : {};
}

/**
 * What a create that must be refused did, as far as its answer shows it
 * (weighed only when that answer is a server error): an address in it was
 * stored, contradicting `on`; otherwise it cannot be read, as no operation
 * of the spec shows the address book (4.5 names "List external addresses",
 * its path not shown).
 */
export function addressEffect(res: HttpResponse, on: string): Effect {
  const data = (res.json as { data?: { id?: unknown } } | null | undefined)?.data;
  if (typeof data?.id === 'string') return executed(`answered the address it stored (data.id ${data.id})`, on);
  return effectUnknown('the answer carries no address, and no operation of the spec shows the address book');
}

/** Why an answer contradicts the spec, and the catalogue sentence it contradicts. */
export interface Contradiction {
  why: string;
  on: string;
}

/**
 * Why a 2xx answer contradicts 4.3/2.3 (a body that is not JSON: 1; a value
 * of another type or format than 2.3 gives: 4.3's Response 200), or
 * undefined when it does not. A field left out is no contradiction here:
 * create-address-schema weighs it.
 */
export function contradictionOf2_3(res: { status: number; json?: unknown; jsonError?: string }): Contradiction | undefined {
  if (!isSuccess(res.status)) return undefined;
  if (res.json === undefined) return { why: `its body is not JSON (1: "All request and response bodies are JSON"): ${res.jsonError ?? 'empty'}`, on: 'SPEC-1-JSON' };
  const violations = validateAgainst(RESPONSE_SCHEMA, res.json).filter((e) => e.kind === 'violation');
  if (!violations.length) return undefined;
  return { why: `it contradicts ${describeViolatedRows(res.json)}: ${describeSchemaErrors(violations)}`, on: RESPONSE_200 };
}

/** 2.3's created_at, "ISO 8601 timestamp in UTC": the schema's format and crypto-transfers.created-at-is-utc read it alike (src/schemas/iso8601.ts). */
export const CREATED_AT: TimestampField = { name: 'created_at', clause: '2.3', rule: 'in UTC', schemaCheck: 'crypto-transfers.create-address-schema' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isString = (v: unknown) => typeof v === 'string';

/** The rows of 2.3's table, in the spec's words, with what a present, non-null value must be. */
const ROWS_2_3: Array<[field: string, row: string, holds: (value: unknown) => boolean]> = [
  ['id', 'id | string, UUID shape', (v) => isString(v) && UUID.test(v as string)],
  ['host_type', 'host_type | string', isString],
  ['host_name', 'host_name | string', isString],
  ['host_id', 'host_id | string, UUID shape', (v) => isString(v) && UUID.test(v as string)],
  ['address', 'address | string', isString],
  ['destination_tag', 'destination_tag | string', isString],
  ['destination_tag_type', 'destination_tag_type | string', isString],
  ['user_owned', 'user_owned | boolean', (v) => typeof v === 'boolean'],
  ['owner_legal_name', 'owner_legal_name | string', isString],
  ['asset_id', 'asset_id | string, UUID shape', (v) => isString(v) && UUID.test(v as string)],
  ['coin_network_id', 'coin_network_id | string, UUID shape', (v) => isString(v) && UUID.test(v as string)],
  ['network_id', 'network_id | string, UUID shape', (v) => isString(v) && UUID.test(v as string)],
  ['created_at', 'created_at | string | ISO 8601 timestamp in UTC', (v) => isString(v) && iso8601Problem(v as string, 'in UTC') === undefined],
];

/** The 2.3 rows an answer's data breaks, quoted, for the FAIL message. */
function describeViolatedRows(json: unknown): string {
  const data = (json as { data?: unknown } | null)?.data;
  if (!data || typeof data !== 'object') return '4.3: "Response 200: an object with data holding the withdrawal address of 2.3"';
  const fields = data as Record<string, unknown>;
  const broken = ROWS_2_3.filter(([field, , holds]) => fields[field] !== undefined && fields[field] !== null && !holds(fields[field]));
  return `2.3 ${broken.map(([, row]) => `"${row}"`).join(', ') || "(the types of its table)"}`;
}
