// What every signature strategy answers about one delivery.

/**
 * Why a signature was not accepted, by what decides the verdict:
 * signature — it does not verify under the scheme and keys (or is malformed, or expired);
 * coverage — it verifies but leaves out a component that must be covered;
 * timing   — it verifies but was created further in the future than the skew allows.
 */
export type SignatureProblem = 'signature' | 'coverage' | 'timing';

export interface SignatureVerdict {
  verified: boolean;
  /** Set when not verified. */
  problem?: SignatureProblem;
  /** Set when it verifies only by a reading the scheme does not allow (a warning, not a failure). */
  warning?: string;
  /** One line: what verified, or why nothing did. */
  reason: string;
  details: Record<string, unknown>;
}
