// What the load stage may do against a target: the caps (explicit, or safe
// defaults on loopback only), each probe's expectations, and TLS material.
import type { ResolvedProfile } from '../../src/config/profile.ts';
import type { LoadProfile, RateLimitExpectation } from '../../src/config/sections/load.ts';

export const DEFAULT_DURATION_SEC = 15;
export const DEFAULT_BLIND_CAP_RPS = 2000;
export const DEFAULT_IN_FLIGHT = 512;

export function isLoopback(baseUrl: string): boolean {
  const host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

export interface RateProbeSettings {
  capRps: number;
  maxDurationSec: number;
  expectedRps?: number;
  /** The profile key that documents expectedRps: a "no 429" far above it is a FAIL declared by the profile. */
  expectedRpsKey?: string;
  burst?: number;
  stepSec?: number;
  maxServerErrorShare?: number;
  maxInFlight: number;
}

export type Gate = { run: true } | { run: false; reason: string; configKey?: string };

/** Rate probes need caps off loopback: ptas never floods a remote service on defaults. */
export function rateProbeGate(profile: ResolvedProfile, probe: 'tokenRateLimit' | 'acceptRateLimit'): Gate {
  const load: LoadProfile = profile.load ?? {};
  if (load.probes?.[probe] === false) return { run: false, reason: `disabled by load.probes.${probe}` };
  if (!load.caps && !isLoopback(profile.baseUrl)) {
    return {
      run: false,
      reason: `the target ${new URL(profile.baseUrl).host} is not on this machine, so load needs explicit limits: set load.caps.rps and load.caps.durationSeconds`,
      configKey: 'load.caps',
    };
  }
  return { run: true };
}

export function rateProbeSettings(profile: ResolvedProfile, probe: 'tokenRateLimit' | 'acceptRateLimit'): RateProbeSettings {
  const caps = profile.load?.caps;
  const expectation: RateLimitExpectation | undefined = profile.load?.[probe];
  const expected = expectation?.expectedRps;
  const defaultCap = expected ? 4 * expected : DEFAULT_BLIND_CAP_RPS;
  const capRps = Math.min(expectation?.capRps ?? caps?.rps ?? defaultCap, caps?.rps ?? Infinity);
  return {
    capRps,
    maxDurationSec: caps?.durationSeconds ?? DEFAULT_DURATION_SEC,
    expectedRps: expected,
    expectedRpsKey: expected ? `load.${probe}.expectedRps` : undefined,
    burst: expectation?.burst,
    stepSec: expectation?.stepSeconds,
    maxServerErrorShare: expectation?.maxServerErrorShare,
    maxInFlight: caps?.inFlight ?? DEFAULT_IN_FLIGHT,
  };
}

