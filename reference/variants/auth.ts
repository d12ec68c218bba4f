// Legitimate variants of the token endpoint (spec 4.1, 2.1, 5): answers the
// spec allows that the reference does not give by default. Switched on in
// reference/routes/token.ts and token/grants.ts (and keys.ts) by ctx.variants.has(name);
// jwks-requires-bearer also in reference/routes/webhooks.ts, whose JWK Set
// it protects too.
import type { Variant } from './types.ts';

export const authVariants: Variant[] = [
  {
    name: 'refresh-omits-refresh-token',
    area: 'auth',
    description: 'A refresh answers the renewed access token and expires_in, but no refresh_token; the used refresh token is invalidated all the same.',
    allowedBy:
      '4.1 rule 1 says the client_credentials response "carries an initial refresh token and an access token"; rule 2 says the refresh response "carries a renewed access token, and the refresh token used in the request is invalidated" — it names no new refresh token, and 5 rule 2 only says a refresh token "is obtained with client_credentials". Whether a refresh also hands out one is not shown (2.1\'s "the next token pair" does not say by which grant).',
  },
  {
    name: 'refresh-reuse-revokes-family',
    area: 'auth',
    description: 'Reusing a used refresh token is refused and also revokes every refresh token issued from it by later refreshes (reuse detection).',
    allowedBy:
      '5 rule 2: "each refresh token is single-use"; what else happens when a used one comes back is not shown (the revoke operation\'s details are "not shown" too). Revoking the family only refuses more, so no rule of 4.1 is broken.',
  },
  {
    name: 'token-form-body-accepted',
    area: 'auth',
    description: 'The token endpoint also accepts its parameters as an application/x-www-form-urlencoded body (as OAuth 2.0 token endpoints do), next to JSON.',
    allowedBy:
      '1: "All request and response bodies are JSON (application/json)" says what the interface\'s requests are; whether the service refuses a body of another type, and with which code, is not shown (7 ties no code to it). Input leniency is never a FAIL on its own (README, Verdicts).',
  },
  {
    name: 'refresh-token-internal-key',
    area: 'auth',
    description: 'Refresh tokens are HS256 JWTs signed with a secret that is published nowhere; access tokens still verify against the JWK Set.',
    allowedBy:
      '2.1: refresh_token is a "string (JWT)", a "Credential used to obtain the next token pair" — only its issuer ever verifies it; 5: "the signature algorithm ... not shown" and "A JSON Web Key Set operation ... exist[s]: details not shown".',
  },
  {
    name: 'expires-in-milliseconds',
    area: 'auth',
    description: 'expires_in counts milliseconds (300000 for a five-minute access token); the profile declares auth.expiresInUnit "milliseconds".',
    allowedBy: '2.1: "expires_in | integer | Lifetime of the access token. Unit: not shown."',
    adjustProfile: (profile) => ({ ...profile, auth: { ...profile.auth, expiresInUnit: 'milliseconds' } }),
  },
  {
    name: 'jwks-requires-bearer',
    // Both key sets: the token checks (auth) and the webhook signature checks (webhooks) fetch one each.
    area: 'all',
    description:
      'Both JWK Sets, the token one (/.well-known/jwks.json) and the webhook signing one (/reference/v1/webhooks/jwks.json), answer 401 without a valid bearer access token, as the deployed API\'s JWKS operation does; the profile declares auth.jwksAccess "bearer".',
    allowedBy:
      '5: "A JSON Web Key Set operation ... exist[s]: details not shown" — how it is called, with which credential, is among those details; REAL-API-NOTES, key distribution: "the JWKS operation requires the partner\'s bearer token". 5 rule 1: "REST calls carry the header Authorization with a bearer access token".',
    adjustProfile: (profile) => ({ ...profile, auth: { ...profile.auth, jwksAccess: 'bearer' } }),
  },
];
