// Shared steps of the auth checks.
import type { ResolvedProfile } from '../../src/config/profile.ts';
import type { CheckContext } from '../../src/check/context.ts';

/** A GET operation that requires a bearer token: auth.protectedPath, else the user-details of a fixture user. */
export function protectedPath(profile: ResolvedProfile, check: CheckContext): string {
  if (profile.auth?.protectedPath) return profile.auth.protectedPath;
  const userId = profile.users?.existingUserId;
  if (!userId) return check.skip('no protected operation to present a bearer token to', 'auth.protectedPath or users.existingUserId');
  return `/v2/users/${encodeURIComponent(userId)}`;
}
