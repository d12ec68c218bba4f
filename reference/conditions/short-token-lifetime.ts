// short-token-lifetime: access tokens that run out within a run, as a
// deployment with a strict security policy issues them. expires_in says so,
// and after it every operation answers the token 401: a correct
// implementation, which the suite must keep up with by renewing its own
// token (src/auth/tokens.ts), per worker, per load instance and in the doctor.

export const SHORT_TOKEN_LIFETIME_SECONDS = 3;

/** The access token lifetime the reference issues under its conditions. */
export function accessTokenLifetimeSeconds(configured: number, conditions: { has(name: string): boolean }): number {
  return conditions.has('short-token-lifetime') ? Math.min(configured, SHORT_TOKEN_LIFETIME_SECONDS) : configured;
}
