// The minimal profile a fault is also caught under: what `ptas init --yes`
// writes (name, base URL, credentials) plus only the keys the covering check
// needs (Fault.minimalProfile). A gap the issue says is a FAIL on the spec or
// a standard it names must be caught without any declaration the full
// reference profile makes (a digest algorithm, a retry schedule, …).
import type { ResolvedProfile } from '../../src/config/profile.ts';

function valueAt(profile: unknown, key: string): unknown {
  return key.split('.').reduce<unknown>((value, step) => (value && typeof value === 'object' ? (value as Record<string, unknown>)[step] : undefined), profile);
}

function setAt(target: Record<string, unknown>, key: string, value: unknown): void {
  const steps = key.split('.');
  let node = target;
  for (const step of steps.slice(0, -1)) node = (node[step] ??= {}) as Record<string, unknown>;
  node[steps.at(-1)!] = value;
}

/** The full profile cut down to what `ptas init --yes` writes and `keys` (dotted paths); a key the full profile lacks is a bug of the fault's declaration. */
export function minimalProfile(full: ResolvedProfile, keys: readonly string[]): ResolvedProfile {
  const minimal: Record<string, unknown> = { name: `${full.name} (minimal profile)`, baseUrl: full.baseUrl, credentials: full.credentials };
  if (full.userIdHeader) minimal.userIdHeader = full.userIdHeader;
  for (const key of keys) {
    const value = valueAt(full, key);
    if (value === undefined) throw new Error(`minimal profile: the reference's profile has no ${key}`);
    setAt(minimal, key, structuredClone(value));
  }
  return minimal as unknown as ResolvedProfile;
}
