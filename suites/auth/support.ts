// Shared steps of the auth checks.
import type { ResolvedProfile } from '../../src/config/profile.ts';
import type { CheckContext } from '../../src/check/context.ts';
import type { SpecOperation } from '../../src/spec/status-codes.ts';

/** A GET operation that requires a bearer token: auth.protectedPath, else the user-details of a fixture user. */
export function protectedPath(profile: ResolvedProfile, check: CheckContext): string {
  if (profile.auth?.protectedPath) return profile.auth.protectedPath;
  const userId = profile.users?.existingUserId;
  if (!userId) return check.skip('no protected operation to present a bearer token to', 'auth.protectedPath or users.existingUserId');
  return `/v2/users/${encodeURIComponent(userId)}`;
}

/** The operation protectedPath names, whose section 7 row applies: user details, unless the profile names another (whose codes the spec does not show). */
export function protectedOperation(profile: ResolvedProfile): SpecOperation | undefined {
  return profile.auth?.protectedPath ? undefined : 'userDetails';
}

/**
 * The client_id of a second client registered with the implementation, to
 * present a refresh token with: auth.otherClientId, else the own-licence
 * partner of users.ownLicence. An unregistered id would prove nothing (it is
 * refused as unknown whether or not refresh tokens are bound to a client).
 */
export function otherClientId(profile: ResolvedProfile, check: CheckContext): string {
  const id = profile.auth?.otherClientId ?? profile.users?.ownLicence?.clientId;
  if (!id) return check.skip("no second registered client to present another client's refresh token with", 'auth.otherClientId (or users.ownLicence)');
  if (id === profile.credentials.clientId) return check.skip('the second client is the configured client itself', 'auth.otherClientId');
  return id;
}
