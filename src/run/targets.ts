// The targets of one Playwright run travel from `ptas run` (or the self-test)
// to playwright.config.ts as JSON in PTAS_TARGETS: one Playwright project per
// target. The environment, not a file, keeps credentials off the disk.
import type { ResolvedProfile } from '../config/profile.ts';

export interface RunTarget {
  /** Project name; results are grouped by it. */
  name: string;
  profile: ResolvedProfile;
  /** Only checks whose title or tags match this regular expression run. */
  grep?: string;
}

export const TARGETS_ENV = 'PTAS_TARGETS';

export function targetsFromEnv(env: NodeJS.ProcessEnv = process.env): RunTarget[] {
  const raw = env[TARGETS_ENV];
  if (!raw) return [];
  return JSON.parse(raw) as RunTarget[];
}
