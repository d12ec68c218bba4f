// What `ptas doctor` examines, resolved as `ptas run` resolves it: without a
// base URL the bundled reference, started in a child process, with its own
// profile (sections of the given profile replace the reference's, so a
// profile file can be tried against it); with one, the profile as given,
// which must then name its credentials.
import { requireResolved } from '../../src/config/resolved.ts';
import type { Profile, ResolvedProfile } from '../../src/config/profile.ts';
import { referenceProfile } from '../../reference/profile.ts';
import { spawnReference } from '../run/reference-process.ts';

export interface DoctorTarget {
  profile: ResolvedProfile;
  /** "the bundled reference at http://…" or the base URL. */
  description: string;
  /** Where the profile came from, for the heading. */
  profileSource: string;
  stop(): Promise<void>;
}

export async function resolveTarget(profile: Profile, profileFile: string | undefined): Promise<DoctorTarget> {
  if (profile.baseUrl) {
    return { profile: requireResolved(profile), description: profile.baseUrl, profileSource: profileFile ?? 'flags and PTAS_* environment only', stop: async () => undefined };
  }
  const reference = await spawnReference();
  const { baseUrl: _ignored, credentials: _alsoIgnored, ...userSections } = profile;
  return {
    profile: { ...referenceProfile(reference.url, reference.options), ...userSections },
    description: `the bundled reference at ${reference.url} (started for this run)`,
    profileSource: profileFile ? `${profileFile}, its sections replacing the reference's own` : "the reference's own",
    stop: reference.stop,
  };
}
