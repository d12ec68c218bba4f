// The shape of a run's "certification" (results.json): whether `ptas verify`
// accepts its bundle (src/certify/certifiability.ts decides it).
// schemas/results.schema.json publishes it.

export interface CertificationGap {
  /** The required check the gap concerns. */
  check: string;
  /** What keeps the bundle from verifying, as `ptas verify` says it. */
  problem: string;
  /** What to do about it: the profile key or flag. */
  fix: string;
}

export interface Certification {
  certifiable: boolean;
  /** How many checks the catalogue requires. */
  required: number;
  /** Every gap, in the catalogue's order; empty when certifiable. */
  gaps: CertificationGap[];
}
