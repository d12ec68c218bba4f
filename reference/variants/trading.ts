// Legitimate variants of accept-offer (spec 4.4, 3.1, 2.4, 7): answers the
// spec allows that the reference does not give by default, and how offers
// are made and users named the way real deployments do. Switched on in
// reference/routes/accept.ts, routes/trading.ts and trading/answers.ts (and
// crypto-transfers.ts, through reference/trading/svc-user-id.ts) by
// ctx.variants.has(name).
import type { Variant } from './types.ts';
import { offersByAmount, withUserIdHeader } from './profile-adjustments.ts';

export const tradingVariants: Variant[] = [
  {
    name: 'accept-replay-idempotent',
    area: 'trading',
    description:
      'A second accept of an offer already accepted or in progress (also several at once) answers 200 with the same trade, or 202 while it is still processing, and executes nothing.',
    allowedBy:
      '4.4 and 3.1 show one transition out of "offer (valid, newest for the user)"; what a repeated accept of an accepted offer answers is not shown (7: "the condition that causes ... 409 ...: not shown"). Replaying the same trade executes nothing, so "the platform processes the trade" still holds once.',
    conflictsWith: ['accept-refusals-as-deployed'],
  },
  {
    name: 'accept-refusals-as-deployed',
    area: 'trading',
    description:
      'Accept refuses as the deployed API documents: 409 for an older or already accepted offer, 410 for an expired offer and for an unknown offer id, 406 for a reused external_transaction_id, 403 without svc-user-id.',
    allowedBy:
      '7 lists 403, 406, 409, 410 and 422 for accept and ties none to a condition ("the condition that causes 400, 401, 403, 406, 409 ...: not shown"); REAL-API-NOTES (the deployed API documentation): "406 reused external transaction id; 409 already accepted, newer offer exists, or failed; 410 expired or unknown id".',
    conflictsWith: ['accept-replay-idempotent'],
  },
  {
    name: 'trade-decimal-exponent',
    area: 'trading',
    description: 'The accepted trade writes asset_amount and spread in exponent form ("1.91054e-3", "5.0E-3").',
    allowedBy:
      "2 (preamble): 'Decimal string' means a number carried as a JSON string; a JSON number may carry an exponent (RFC 8259 section 6), and no narrower format of the string is shown.",
  },
  {
    name: 'trade-time-offset',
    area: 'trading',
    description: 'The accepted trade\'s time is written at a UTC offset of +01:00 instead of +00:00.',
    allowedBy: '2.4: time is an "ISO 8601 timestamp with UTC offset"; which offset is not shown.',
  },
  {
    name: 'accept-202-without-body',
    area: 'trading',
    description: 'A 202 to accept has no body (and no Content-Type).',
    allowedBy: '4.4: "Response 202: the request is received and still being processed; the body: not shown."',
  },
  {
    name: 'other-users-offer-not-found',
    area: 'trading',
    description: 'An accept of another user\'s offer is answered 404 record not found, so the offer\'s existence is not revealed to other users.',
    allowedBy:
      '7: "404 is named record not found", and which code refuses another user\'s offer is not shown ("the condition that causes ... 403 ...: not shown"); to the user named by svc-user-id the offer is a record not found.',
  },
  {
    name: 'accept-body-refused',
    area: 'trading',
    description: 'An accept that carries a request body is refused with 422 (parameter error) and executes nothing.',
    allowedBy: '4.4: "No request body is shown." A body the operation does not take may be refused; 422 is in 7\'s list for accept.',
  },
  {
    name: 'offer-slow-by-body-value',
    area: 'trading',
    description:
      'Create-offer takes the deployed API\'s kind of body, {"amount": "<decimal string>", "currency": "EUR", "validity_seconds"?: integer}, instead of processingMs/validitySeconds (ignored): an amount of 5000 or more makes a slow offer (processing max(1000, 4 × the predefined time) ms, so accept answers 202), a smaller one processes in offerProcessingMs (accept answers 200); validity_seconds sets the validity period, a malformed amount is 422. The profile describes the offers as recipes (fast 10.00, slow 9999.00, expiring with validity_seconds 1).',
    allowedBy:
      '4 (operations named, not specified): "Create a trade offer ... Their paths, parameters and payloads: not shown"; 8: the processing time before 202 is "a short predefined time; the exact value is not shown", and what makes one offer take longer than another is not shown. REAL-API-NOTES: real implementations make an offer slow by a value in the creation body, not by a processing time.',
    adjustProfile: offersByAmount,
  },
  {
    name: 'user-id-header-renamed',
    area: 'all',
    description:
      'The user id is read from x-partner-user-id (or the name options.userIdHeader / `ptas reference --user-id-header` gives) instead of svc-user-id, on accept-offer, the withdrawal address and the offer status; svc-user-id is then an unknown header. The profile declares userIdHeader, and every svc-user-id template header is sent under that name.',
    allowedBy:
      'Not the spec\'s own words: 5 rule 4 names the header svc-user-id. REAL-API-NOTES, user-id header: "a product-specific header name in some editions: make it configurable". The profile declares the name (userIdHeader), and the checks then hold such an edition to every svc-user-id rule of 4.3 and 4.4 under that name; only the name is taken from the profile.',
    adjustProfile: withUserIdHeader,
  },
];
