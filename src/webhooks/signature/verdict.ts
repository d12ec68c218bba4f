// What every signature strategy answers about one delivery.
export interface SignatureVerdict {
  verified: boolean;
  /** One line: what verified, or why nothing did. */
  reason: string;
  details: Record<string, unknown>;
}
