// One way from "what the user gave" (a profile built from the file, PTAS_*
// environment and flags) to the target a command acts on, for `ptas run`,
// `ptas load` and `ptas doctor` alike: with a base URL, the profile as given,
// which must then name its credentials (src/config/resolved.ts); without one,
// the bundled reference started in a child process with its own profile, the
// user's sections replacing the reference's own (so a profile can be tried
// against it), and faults, variants and conditions only ever applied to it. The target
// carries its connection (src/http/connection.ts): base URL, credentials,
// timeouts and TLS, decided once for everything the command sends.
import { ConfigError } from '../../src/config/errors.ts';
import type { Profile, ResolvedProfile } from '../../src/config/profile.ts';
import { requireResolved } from '../../src/config/resolved.ts';
import { connectionOf, type Connection } from '../../src/http/connection.ts';
import { FaultSet } from '../../reference/faults/index.ts';
import type { ReferenceOptions } from '../../reference/options.ts';
import { referenceProfile } from '../../reference/profile.ts';
import { VariantSet } from '../../reference/variants/index.ts';
import { ConditionSet } from '../../reference/conditions/index.ts';
import { spawnReference } from './reference-process.ts';

export interface TargetRequest {
  profile: Profile;
  /** Faults, legitimate variants and conditions of the bundled reference; refused with a base URL. */
  faults?: string[];
  variants?: string[];
  conditions?: string[];
  /** Options of the bundled reference (limits, seed). */
  reference?: Partial<ReferenceOptions>;
}

export interface Target {
  profile: ResolvedProfile;
  /** How every request of the command reaches the target (from the profile). */
  connection: Connection;
  /** Set when the target is the bundled reference this command started. */
  embedded?: { url: string; faults: string[]; variants: string[]; conditions: string[] };
  /** "the bundled reference at http://… with fault(s) …" or the base URL, for progress lines. */
  description: string;
  stop(): Promise<void>;
}

/** Faults, variants and conditions change the bundled reference only, and must be known ones. */
function checkReferenceChoices({ profile, faults = [], variants = [], conditions = [] }: TargetRequest): void {
  if (faults.length && profile.baseUrl) throw new ConfigError('--fault injects faults into the embedded reference; it cannot be combined with --base-url');
  if (variants.length && profile.baseUrl) throw new ConfigError('--variant changes the embedded reference; it cannot be combined with --base-url');
  if (conditions.length && profile.baseUrl) throw new ConfigError('--condition changes the embedded reference; it cannot be combined with --base-url');
  try {
    new FaultSet(faults);
    new VariantSet(variants);
    new ConditionSet(conditions);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
}

export async function resolveTarget(request: TargetRequest): Promise<Target> {
  checkReferenceChoices(request);
  if (request.profile.baseUrl) {
    const profile = requireResolved(request.profile);
    return { profile, connection: connectionOf(profile), description: profile.baseUrl, stop: async () => undefined };
  }
  const faults = request.faults ?? [];
  const variants = request.variants ?? [];
  const conditions = request.conditions ?? [];
  const reference = await spawnReference({ ...request.reference, faults, variants, conditions });
  const { baseUrl: _ignored, credentials: _alsoIgnored, ...userSections } = request.profile;
  const withFaults = faults.length ? ` with fault(s) ${faults.join(', ')}` : '';
  const withVariants = variants.length ? ` with variant(s) ${variants.join(', ')}` : '';
  const underConditions = conditions.length ? ` under condition(s) ${conditions.join(', ')}` : '';
  const profile: ResolvedProfile = { ...referenceProfile(reference.url, reference.options), ...userSections };
  return {
    profile,
    connection: connectionOf(profile),
    embedded: { url: reference.url, faults, variants, conditions },
    description: `the reference implementation at ${reference.url}${withFaults}${withVariants}${underConditions}`,
    stop: reference.stop,
  };
}
