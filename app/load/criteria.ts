// What a 429 staircase of `ptas load` is judged against, from the scenario,
// the profile and the flags — the same for one engine, for a distributed
// run's instances and for their merge.
import type { Profile } from '../../src/config/profile.ts';
import { ACCEPT_RATE_LIMIT, TOKEN_RATE_LIMIT } from '../../load/checks.ts';
import type { RateLimitCriteria } from '../../load/probes/rate-limit/analysis.ts';
import type { ScenarioEntry } from '../../load/scenarios/index.ts';
import type { OperationName } from '../../load/scenarios/types.ts';
import type { ParamOverrides } from '../../load/scenarios/params.ts';

export function probeKey(operation: OperationName): 'acceptRateLimit' | 'tokenRateLimit' {
  return operation === 'accept' ? 'acceptRateLimit' : 'tokenRateLimit';
}

/** The documented limit and burst, and where they were stated: a "no 429" far above them is a FAIL against that statement. */
export function documentedLimit(entry: ScenarioEntry, profile: Profile, overrides: ParamOverrides, expectedRps: number | undefined): { expectedRps?: number; expectedRpsKey?: string; burst?: number } {
  if (!expectedRps) return {};
  const key = overrides.expectedRps !== undefined ? '--expected-rps' : `load.${probeKey(entry.operation)}.expectedRps`;
  return { expectedRps, expectedRpsKey: key, burst: overrides.burst ?? profile.load?.[probeKey(entry.operation)]?.burst };
}

export function rateLimitCriteria(entry: ScenarioEntry, profile: Profile, overrides: ParamOverrides, params: { capRps: number; expectedRps?: number }): RateLimitCriteria {
  const maxServerErrorShare = profile.load?.[probeKey(entry.operation)]?.maxServerErrorShare;
  return { capRps: params.capRps, ...documentedLimit(entry, profile, overrides, params.expectedRps), ...(maxServerErrorShare !== undefined ? { maxServerErrorShare } : {}) };
}

export function checkIdOf(operation: OperationName): string {
  return operation === 'accept' ? ACCEPT_RATE_LIMIT.id : TOKEN_RATE_LIMIT.id;
}
