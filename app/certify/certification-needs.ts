// The profile keys a certification still needs, before any run: `ptas
// verify` refuses a bundle in which a required check SKIPped, and a check
// SKIPs when the profile lacks a key it needs. What each conformance check
// needs comes from app/init/unlocks.json (computed against the bundled
// reference: groups of keys that must all be met, each by any one of its
// keys); the load probes' needs are their own gates (load/stage/settings.ts)
// and the keys the accept probe creates its offers with. `ptas doctor` and
// the console's Check list them; a run's certification statement
// (src/certify/certifiability.ts) remains the word on what a run gave.
import type { Profile, ResolvedProfile } from '../../src/config/profile.ts';
import { readNeeds, valueAt, type NeedsMap } from '../init/unlocks.ts';
import { ACCEPT_RATE_LIMIT, RATE_LIMITED_ACCEPT_NOT_EXECUTED, TOKEN_BODY_SIZE_LIMIT, TOKEN_RATE_LIMIT } from '../../load/checks.ts';
import { rateProbeGate } from '../../load/stage/settings.ts';

/** One missing need: any one of `keys` meets it; without it these required checks SKIP. */
export interface CertificationNeed {
  keys: string[];
  checks: string[];
}

/** The keys a load check needs beyond what unlocks.json knows (it runs no load stage), as need groups. */
function loadNeeds(profile: Profile): NeedsMap {
  const resolved = profile as ResolvedProfile;
  const gateNeeds = (probe: 'tokenRateLimit' | 'acceptRateLimit'): string[][] => {
    if (typeof resolved.baseUrl !== 'string') return [];
    const gate = rateProbeGate(resolved, probe);
    if (gate.run) return [];
    // Turned off by the profile: the need is to turn it on again.
    return [[gate.configKey ?? `load.probes.${probe}`]];
  };
  const offers = [['trading.createOffer'], ['trading.createUser', 'trading.userId']];
  return {
    [TOKEN_RATE_LIMIT.id]: gateNeeds('tokenRateLimit'),
    [TOKEN_BODY_SIZE_LIMIT.id]: profile.load?.probes?.tokenBodyLimit === false ? [['load.probes.tokenBodyLimit']] : [],
    [ACCEPT_RATE_LIMIT.id]: [...gateNeeds('acceptRateLimit'), ...offers],
    [RATE_LIMITED_ACCEPT_NOT_EXECUTED.id]: [...gateNeeds('acceptRateLimit'), ...offers],
  };
}

/** Whether the profile meets a group: a key of it set (a load.probes switch counts as met unless it is false). */
function met(profile: Profile, group: readonly string[]): boolean {
  return group.some((key) => (key.startsWith('load.probes.') ? valueAt(profile, key) !== false : valueAt(profile, key) !== undefined));
}

/**
 * The needs of the required checks this profile does not meet, one entry per
 * group of keys with the checks waiting on it (most checks first).
 */
export function certificationNeeds(profile: Profile, requiredChecks: readonly string[], needs: NeedsMap = readNeeds()): CertificationNeed[] {
  const all = { ...needs, ...loadNeeds(profile) };
  const unmet = new Map<string, CertificationNeed>();
  for (const check of requiredChecks) {
    for (const group of all[check] ?? []) {
      if (met(profile, group)) continue;
      const keys = [...group].sort();
      const entry = unmet.get(keys.join('|')) ?? { keys, checks: [] };
      if (!entry.checks.includes(check)) entry.checks.push(check);
      unmet.set(keys.join('|'), entry);
    }
  }
  return [...unmet.values()].sort((a, b) => b.checks.length - a.checks.length || a.keys[0]!.localeCompare(b.keys[0]!));
}

/** "trading.pollDeadlineMs" or "auth.jwksUrl or auth.jwksFile". */
export function needKeysText(need: CertificationNeed): string {
  return need.keys.join(' or ');
}
