// The "load" section of the reference's own implementation profile: the
// limits it is configured with, as a partner would document them. The probes
// aim their staircases at these values and measure the real ones; because
// they are documented here, a probe that finds no limit well above them FAILs
// (profile-declared) where it would otherwise be INCONCLUSIVE (the spec shows
// no value, 8). A variant whose implementation documents no limit removes the
// entry (reference/variants/load.ts, adjustProfile).
import type { LoadProfile } from '../../src/config/sections/load.ts';
import type { ReferenceOptions } from '../options.ts';

export function loadSection(_baseUrl: string, options: ReferenceOptions): LoadProfile {
  // No load.caps: the reference is on loopback, where the stage's safe defaults apply.
  return {
    // Each staircase may climb to four times its own limit, not the other's.
    tokenRateLimit: { expectedRps: options.tokenRatePerSecond, burst: options.tokenBurst, capRps: 4 * options.tokenRatePerSecond },
    acceptRateLimit: { expectedRps: options.acceptRatePerSecond, burst: options.acceptBurst, capRps: 4 * options.acceptRatePerSecond },
    // Well above the limit, so the bisection has a real range to search.
    tokenBodyLimit: { expectedBytes: options.tokenBodyLimitBytes, maxProbeBytes: Math.max(64 * 1024, 16 * options.tokenBodyLimitBytes) },
  };
}
