// Shared steps of the user-details checks (spec 4.2, 2.2): the operation's
// path, the journey-context rules as the spec states them, and the profile
// values a request needs (a missing one ends the check with SKIP naming it).
import type { CheckContext } from '../../src/check/context.ts';
import type { HttpClient, HttpResponse } from '../../src/http/client.ts';
import type { AccessTokenCache } from '../../src/auth/tokens.ts';
import type { ResolvedProfile } from '../../src/config/profile.ts';
import type { JourneyQuery } from '../../src/config/sections/users.ts';
import { profileValue } from '../../src/config/key-path.ts';
import type { TimestampField } from '../../src/check/timestamp-field.ts';

export const USER_DETAILS_SCHEMA = 'user-details.schema.json';

/** 4.2 "Response 200: an object with data holding the user of 2.2.": what an existing user's details answer. */
export const RESPONSE_200 = 'SPEC-4-2-RESPONSE-200';

/**
 * data of a 200 as an object, or undefined when it is null, left out or no
 * object: then there is no user to look into, and whether the body is the
 * user of 2.2 is users.details-schema's to judge.
 */
export function userOf(res: HttpResponse): Record<string, unknown> | undefined {
  const data = (res.json as { data?: unknown } | null | undefined)?.data;
  return data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
}

/** What data was, for a message: "null", "left out", "an array". */
export function describeData(res: HttpResponse): string {
  const json = res.json as { data?: unknown } | null | undefined;
  if (json === null || typeof json !== 'object' || !('data' in json)) return 'left out';
  const data = json.data;
  return data === null ? 'null' : Array.isArray(data) ? 'an array' : typeof data;
}

/** Expects 200 for the profile's existing user: 4.2 shows that answer (a transient 503 is ERROR, src/check/outcome.ts). */
export function expectUserServed(check: CheckContext, res: HttpResponse, what: string): void {
  check.expectStatus(res, 200, what, { on: RESPONSE_200 });
}

/** 2.2's registered_at, "ISO 8601 timestamp with UTC offset": the schema's format and users.registered-at-has-offset read it alike (src/schemas/iso8601.ts). */
export const REGISTERED_AT: TimestampField = { name: 'registered_at', clause: '2.2', rule: 'with UTC offset', schemaCheck: 'users.details-schema' };

/** The codes 7 names for a request the service cannot take: 400 bad request, 422 parameter error. */
export const PARAMETER_ERROR_CODES = [400, 422] as const;

export type AssetParameter = 'asset_group' | 'source_asset_group' | 'target_asset_group';
export const ASSET_PARAMETERS: readonly AssetParameter[] = ['asset_group', 'source_asset_group', 'target_asset_group'];

/** The profile key holding a valid value of each asset-group parameter. */
const PROFILE_KEY = { asset_group: 'users.assetGroup', source_asset_group: 'users.sourceAssetGroup', target_asset_group: 'users.targetAssetGroup' } as const;

/** user_flow values (4.2 rule 2) and the asset-group parameters each requires (rules 3-5). */
export const FLOW_PARAMETERS: Readonly<Record<string, readonly AssetParameter[]>> = {
  onboard: [],
  trade_buy: ['asset_group'],
  trade_sell: ['asset_group'],
  trade_swap: ['source_asset_group', 'target_asset_group'],
  saving_create: ['asset_group'],
  stake: [],
  unstake: [],
  crypto_transfer: [],
};
export const FLOWS = Object.keys(FLOW_PARAMETERS);
export const FLOWS_WITHOUT_ASSET_GROUP = FLOWS.filter((f) => FLOW_PARAMETERS[f]!.length === 0);

export function userPath(userId: string): string {
  return `/v2/users/${encodeURIComponent(userId)}`;
}

export function existingUserId(profile: ResolvedProfile, check: CheckContext): string {
  return check.need(profile, 'users.existingUserId', 'no user to read');
}

/** A valid value of an asset-group parameter from the profile, or undefined with the key to set. */
export function assetValue(profile: ResolvedProfile, parameter: AssetParameter): { value?: string; key: string } {
  const key = PROFILE_KEY[parameter];
  return { value: profileValue(profile, key), key };
}

/** A valid value of an asset-group parameter; SKIPs naming the profile key when it is not set. */
export function requireAssetValue(profile: ResolvedProfile, check: CheckContext, parameter: AssetParameter, why: string): string {
  return check.need(profile, PROFILE_KEY[parameter], `no ${parameter} value to ${why}`);
}

/** user_flow with exactly the asset-group parameters it requires, from the profile. */
export function flowQuery(profile: ResolvedProfile, check: CheckContext, flow: string): JourneyQuery {
  const query: JourneyQuery = { user_flow: flow };
  for (const parameter of FLOW_PARAMETERS[flow] ?? []) query[parameter] = requireAssetValue(profile, check, parameter, `send with user_flow ${flow}`);
  return query;
}

export function requireJourneys(profile: ResolvedProfile, check: CheckContext, count: number): string[] {
  const journeys = profile.users?.journeys ?? [];
  if (journeys.length < count) {
    return check.skip(`needs ${count === 1 ? 'a user_journey[] value' : `${count} distinct user_journey[] values`}, the profile has ${journeys.length}`, 'users.journeys');
  }
  return journeys;
}

/** The query as it goes on the wire, for messages: user_flow=trade_buy&asset_group=crypto. */
export function describeQuery(query: JourneyQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) for (const v of Array.isArray(value) ? value : [value]) params.append(key, v);
  return decodeURIComponent(params.toString()) || '(no query)';
}

export interface UserRequest {
  http: HttpClient;
  tokens: AccessTokenCache;
  userId: string;
  query?: JourneyQuery;
  headers?: Record<string, string>;
  label: string;
  /** 'invented': a hostile probe the suite made up outside the operation's domain (src/check/outcome.ts, rule 4). */
  input?: 'invented';
}

export async function getUser({ http, tokens, userId, query, headers, label, input }: UserRequest): Promise<HttpResponse> {
  return http.get(userPath(userId), { bearer: tokens, query, headers, label, ...(input ? { input } : {}) });
}

/** Compares term ids as sets: order is not specified. Integers only, as 2.2 types them. */
export function sameTerms(actual: readonly unknown[], expected: readonly number[]): boolean {
  if (!actual.every((t) => Number.isInteger(t))) return false;
  const got = new Set(actual as number[]);
  return got.size === new Set(expected).size && expected.every((t) => got.has(t));
}

export function formatTerms(terms: readonly unknown[]): string {
  return `[${[...terms].sort((a, b) => Number(a) - Number(b)).map((t) => JSON.stringify(t)).join(', ')}]`;
}
