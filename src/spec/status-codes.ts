// The status codes section 7 of the spec lists for each specified operation.
// A refusal with a code from the operation's own list is one the spec allows
// (section 7 ties most codes to no condition); a code outside the list is a
// deviation worth a WARN, never a FAIL on its own.
export const SECTION_7_CODES = {
  token: [200, 413, 422, 429, 500],
  userDetails: [200, 400, 401, 404, 422, 503],
  withdrawalAddress: [200, 400, 401, 403, 404, 422, 500, 503],
  acceptOffer: [200, 202, 401, 403, 406, 409, 410, 422, 429, 500, 503],
} as const satisfies Record<string, readonly number[]>;

export type SpecOperation = keyof typeof SECTION_7_CODES;

/** What the operation is called in messages. */
export const OPERATION_NAMES: Record<SpecOperation, string> = {
  token: 'the token endpoint',
  userDetails: 'user details v2',
  withdrawalAddress: 'create withdrawal address',
  acceptOffer: 'accept trade offer',
};

/** The catalogue sentence (schemas/requirements.json) of section 7's row for each operation: what a code outside it deviates from. */
export const SECTION_7_SENTENCE: Record<SpecOperation, string> = {
  token: 'SPEC-7-TOKEN-CODES',
  userDetails: 'SPEC-7-USER-DETAILS-CODES',
  withdrawalAddress: 'SPEC-7-WITHDRAWAL-ADDRESS-CODES',
  acceptOffer: 'SPEC-7-ACCEPT-CODES',
};

/** The 4xx codes section 7 lists for the operation: the refusals it documents. */
export function documentedRefusals(operation: SpecOperation): number[] {
  return SECTION_7_CODES[operation].filter((code) => code >= 400 && code < 500);
}
