// The requests each load scenario sends, as templates. The token endpoint,
// user details and accept-offer are shown by the spec (4.1, 4.2, 4.4);
// creating an offer is not, so it comes from the profile (trading.createOffer).
import type { HttpMethod, RequestTemplate } from './types.ts';

export const TOKEN_PATH = '/v1/oauth/token';

/** A client_credentials request (spec 4.1 rule 1): the request a partner repeats most. */
export function tokenRequest(): RequestTemplate {
  return {
    name: 'token',
    method: 'POST',
    path: TOKEN_PATH,
    headers: { 'content-type': 'application/json' },
    json: { grant_type: 'client_credentials', client_id: '{clientId}', client_secret: '{clientSecret}' },
  };
}

/** GET /v2/users/{User-ID} with no journey parameter (spec 4.2 rule 6: the default journeys). */
export function userDetailsRequest(): RequestTemplate {
  return { name: 'user-details', method: 'GET', path: '/v2/users/{userId}', bearer: true };
}

/** PATCH /v1/offers/{Offer-ID}/accept for the user named by svc-user-id, or the profile's userIdHeader (spec 4.4, 5 rule 4). */
export function acceptRequest(userIdHeader = 'svc-user-id'): RequestTemplate {
  return {
    name: 'accept',
    method: 'PATCH',
    path: '/v1/offers/{offerId}/accept',
    headers: { [userIdHeader]: '{userId}' },
    bearer: true,
  };
}

/** The profile's description of an operation (schemas/profile/operation.schema.json), as far as load needs it. */
export interface ProfileOperation {
  method: HttpMethod;
  path: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: unknown;
  bearer?: boolean;
  extract?: Record<string, string>;
}

/** A profile operation as a request template (bearer unless the profile says bearer: false, as callOperation does). */
export function fromProfileOperation(name: string, operation: ProfileOperation, setup: boolean): RequestTemplate {
  return {
    name,
    method: operation.method,
    path: operation.path,
    query: operation.query,
    headers: operation.headers,
    json: operation.body,
    bearer: operation.bearer !== false,
    extract: operation.extract,
    setup,
  };
}
