// Shared steps of the withdrawal-address checks (spec 4.3).
import type { CheckContext } from '../../src/check/context.ts';
import type { HttpClient, HttpResponse } from '../../src/http/client.ts';
import type { ResolvedProfile } from '../../src/config/profile.ts';
import type { WithdrawalAddressRequest } from '../../src/config/sections/crypto-transfers.ts';

export const WITHDRAWAL_ADDRESS_PATH = '/v1/crypto-transfers/addresses/withdrawals';
export const USER_HEADER = 'svc-user-id';

/** Parameter-error codes of 4.3 / 7: 400 bad request, 422 parameter error. */
export const PARAMETER_ERROR_CODES = [400, 422] as const;

/** The fields of the 4.3 request body, in the spec's order. */
export const REQUEST_FIELDS = ['coin_network_id', 'address', 'destination_tag', 'host_type', 'host_name', 'host_id', 'user_owned', 'owner_legal_name'] as const;

export interface WithdrawalFixture {
  userId: string;
  body: WithdrawalAddressRequest;
}

/** The profile's user and accepted body, or SKIP naming the missing key. */
export function withdrawalFixture(profile: ResolvedProfile, check: CheckContext): WithdrawalFixture {
  const section = profile.cryptoTransfers;
  if (!section?.userId) return check.skip('no user to create withdrawal addresses for', 'cryptoTransfers.userId');
  if (!section.withdrawalAddress) return check.skip('no withdrawal-address body the implementation accepts', 'cryptoTransfers.withdrawalAddress');
  return { userId: section.userId, body: section.withdrawalAddress };
}

export interface PostOptions {
  bearer?: string;
  /** svc-user-id; undefined sends none. */
  userId?: string;
  json?: unknown;
  /** A raw body instead of json. */
  body?: string;
  contentType?: string;
  label: string;
}

export function postWithdrawalAddress(http: HttpClient, options: PostOptions): Promise<HttpResponse> {
  const headers: Record<string, string> = {};
  if (options.userId !== undefined) headers[USER_HEADER] = options.userId;
  if (options.contentType) headers['content-type'] = options.contentType;
  return http.post(WITHDRAWAL_ADDRESS_PATH, { headers, json: options.json, body: options.body, bearer: options.bearer, label: options.label });
}

/** The `data` object of a 200 answer, after the status has been checked. */
export function addressOf(res: HttpResponse): Record<string, unknown> {
  const data = (res.json as { data?: unknown } | undefined)?.data;
  return data && typeof data === 'object' ? (data as Record<string, unknown>) : {};
}

/** Creates an address with the profile's body and expects 200. */
export async function createAddress(check: CheckContext, http: HttpClient, bearer: string, fixture: WithdrawalFixture, body = fixture.body): Promise<HttpResponse> {
  const res = await postWithdrawalAddress(http, { bearer, userId: fixture.userId, json: body, label: 'create a withdrawal address' });
  check.expectStatus(res, 200, `creating a withdrawal address for user ${fixture.userId}`);
  return res;
}
