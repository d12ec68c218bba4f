// Legitimate variants of how refusals are answered where section 7 lists a
// 500 (issue 29, "5xx by effect"): a server error where the client erred is
// the wrong kind of answer (RFC 9110 15.6), but what a refusal rule forbids
// is an effect, and none happens. Switched on in reference/routes/token.ts,
// routes/crypto-transfers.ts and routes/accept.ts by ctx.variants.has(name).
import type { Variant } from './types.ts';

export const serverErrorVariants: Variant[] = [
  {
    name: 'refusal-500-listed',
    area: 'all',
    description:
      'Four refusals are answered 500 (code internal_error, in the JSON error body every refusal has) instead of a 4xx, and nothing executes: a token request whose body is not JSON (no token issued), a withdrawal-address body that is not JSON (no address stored), an accept of an unknown offer id, and an accept of an offer a newer one superseded (the offer stays unexecuted).',
    allowedBy:
      '7 lists 500 for the token endpoint, create withdrawal address and accept trade offer, and "the condition that causes ... 500 ...: not shown". Each rule the requests break (4.1\'s field table, 4.4 rule 1) forbids an effect — a token issued, an address stored, an offer executed — and none happens; a 5xx where the client erred is the wrong class of answer (RFC 9110 15.6), a WARN (README, Verdicts).',
  },
];
