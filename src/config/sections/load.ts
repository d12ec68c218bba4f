// Profile section "load": typed view of schemas/profile/load.schema.json.

export interface LoadCaps {
  /** Highest arrival rate offered, requests per second. */
  rps: number;
  /** Longest load of one probe, seconds. */
  durationSeconds: number;
  /** Most requests in flight at once (k6: maxVUs). */
  inFlight?: number;
}

export interface RateLimitExpectation {
  /** The documented limit: only against it can "no 429 up to the cap" FAIL (profile-declared); the spec shows no value (8). */
  expectedRps?: number;
  burst?: number;
  capRps?: number;
  stepSeconds?: number;
  maxServerErrorShare?: number;
}

export interface LoadProfile {
  probes?: { tokenRateLimit?: boolean; acceptRateLimit?: boolean; tokenBodyLimit?: boolean };
  caps?: LoadCaps;
  tokenRateLimit?: RateLimitExpectation;
  acceptRateLimit?: RateLimitExpectation;
  /** expectedBytes is the documented limit: only against it can "no 413 up to maxProbeBytes" FAIL (profile-declared). */
  tokenBodyLimit?: { expectedBytes?: number; maxProbeBytes?: number };
}
