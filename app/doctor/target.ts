// What `ptas doctor` examines: the target every command resolves the same way
// (app/run/target.ts), plus where its profile came from, for the heading.
import type { Profile } from '../../src/config/profile.ts';
import { resolveTarget, type Target } from '../run/target.ts';

export interface DoctorTarget extends Target {
  /** Where the profile came from. */
  profileSource: string;
}

export async function doctorTarget(profile: Profile, profileFile: string | undefined): Promise<DoctorTarget> {
  const target = await resolveTarget({ profile });
  const profileSource = target.embedded
    ? profileFile
      ? `${profileFile}, its sections replacing the reference's own`
      : "the reference's own"
    : (profileFile ?? 'flags and PTAS_* environment only');
  const description = target.embedded ? `the bundled reference at ${target.embedded.url} (started for this run)` : target.description;
  return { ...target, description, profileSource };
}
