import type { Fault } from './types.ts';

export const authFaults: Fault[] = [
  { name: 'cc-same-token-twice', requirement: 'TOKEN-CC-ISSUES-PAIR', description: 'client_credentials returns the access token in both fields instead of a distinct refresh token.' },
  { name: 'expires-in-as-string', requirement: 'TOKEN-RESPONSE-SCHEMA', description: 'expires_in is sent as a JSON string instead of an integer.' },
  { name: 'token-content-type-text', requirement: 'TOKEN-JSON-BODY', description: 'Token responses are labelled Content-Type: text/plain.' },
  { name: 'opaque-tokens', requirement: 'TOKEN-JWT-FORMAT', description: 'Access and refresh tokens are opaque random strings instead of JWTs.' },
  {
    name: 'jwt-exp-milliseconds',
    requirement: 'TOKEN-JWT-FORMAT',
    description: "The access token's exp claim counts milliseconds since the epoch, where a JWT's NumericDate counts seconds (RFC 7519 §2).",
    // Caught on RFC 7519's words alone, without auth.expiresInUnit.
    minimalProfile: [],
  },
  { name: 'expires-in-mismatch', requirement: 'TOKEN-EXPIRES-IN', description: 'expires_in announces three times the lifetime the token\'s exp claim carries.' },
  { name: 'jwks-wrong-key', requirement: 'TOKEN-JWKS-VERIFIES', description: 'The published JWK Set holds a key that did not sign the tokens.' },
  { name: 'refresh-reissues-old-access-token', requirement: 'TOKEN-REFRESH-RENEWS', description: 'A refresh returns the access token issued with the refresh token instead of a new one.' },
  {
    name: 'refresh-returns-used-token',
    requirement: 'TOKEN-REFRESH-SINGLE-USE',
    description: 'A refresh answers, as refresh_token, the very refresh token the request used, which the refresh has just invalidated: the client is handed a credential that is refused on its first use.',
    // The covering check needs nothing beyond base URL and credentials: the gap is a FAIL on 2.1's words alone.
    minimalProfile: [],
  },
  { name: 'refresh-token-reusable', requirement: 'TOKEN-REFRESH-SINGLE-USE', description: 'A used refresh token is not invalidated and can be exchanged again.' },
  { name: 'refresh-race', requirement: 'TOKEN-REFRESH-SINGLE-USE-ATOMIC', description: 'The used-check and the invalidation of a refresh token are separated by an await, so concurrent refreshes all succeed.' },
  { name: 'refresh-accepts-any-token', requirement: 'TOKEN-REFRESH-TOKEN-VALID', description: 'The refresh grant issues tokens for any refresh_token string without verifying it.' },
  { name: 'grant-type-defaulted', requirement: 'TOKEN-GRANT-TYPE-REQUIRED', description: 'A missing or unknown grant_type is treated as client_credentials.' },
  { name: 'refresh-without-client-id', requirement: 'TOKEN-CLIENT-ID-REQUIRED', description: 'The refresh grant does not require client_id.' },
  { name: 'client-secret-unchecked', requirement: 'TOKEN-CLIENT-SECRET-VERIFIED', description: 'client_credentials issues tokens whatever client_secret is sent.' },
  { name: 'parameter-error-400', requirement: 'TOKEN-PARAMETER-ERROR-422', description: 'Token endpoint parameter errors are answered 400 instead of 422.' },
  {
    name: 'refresh-spent-by-bad-client-id',
    requirement: 'TOKEN-NO-SERVER-ERROR-ON-BAD-INPUT',
    description: 'A refresh whose client_id is not a string spends its refresh token before client_id is read, then throws: 500, and the refresh token is gone with no access token for it.',
  },
  { name: 'token-endpoint-requires-bearer', requirement: 'TOKEN-NO-BEARER-REQUIRED', description: 'The token endpoint answers 401 unless an Authorization header is sent.' },
  { name: 'valid-bearer-rejected', requirement: 'AUTH-ACCESS-TOKEN-ACCEPTED', description: 'Protected operations answer 401 even to a valid access token.' },
  { name: 'missing-bearer-allowed', requirement: 'AUTH-BEARER-REQUIRED', description: 'A request without Authorization is let through as if authenticated.' },
  { name: 'bearer-signature-unchecked', requirement: 'AUTH-BEARER-INVALID-REJECTED', description: 'Bearer JWTs are decoded without verifying their signature, so tampered tokens pass.' },
  { name: 'refresh-token-as-bearer', requirement: 'AUTH-REFRESH-TOKEN-NOT-BEARER', description: 'A refresh token is accepted as a bearer credential.' },
  { name: 'refreshed-access-token-rejected', requirement: 'AUTH-ACCESS-TOKEN-ACCEPTED', description: 'Access tokens issued by a refresh carry an issuer the protected operations do not accept: 401.' },
  { name: 'refresh-client-unbound', requirement: 'TOKEN-REFRESH-CLIENT-BOUND', description: "A refresh token is exchanged for whichever client_id comes with it, another registered client's included." },
];
