import type { Fault } from './types.ts';

export const tradingFaults: Fault[] = [
  { name: 'accept-answers-204', requirement: 'OFFER-ACCEPT-RESULT', description: 'An accept that finished processing answers 204 No Content instead of 200 with the trade.' },
  { name: 'accept-always-202', requirement: 'OFFER-200-WITHIN-PREDEFINED-TIME', description: 'Accept answers 202 even when processing finished within the predefined time.' },
  { name: 'accept-waits-for-processing', requirement: 'OFFER-202-WHEN-SLOW', description: 'Accept holds the response until processing finishes, however long it takes, and never answers 202.' },
  { name: 'trade-amounts-as-numbers', requirement: 'OFFER-ACCEPTED-TRADE-SCHEMA', description: 'The accepted trade carries its amounts as JSON numbers instead of decimal strings.' },
  { name: 'trade-warning-keys-missing', requirement: 'OFFER-ACCEPTED-TRADE-SCHEMA', description: 'Warning items of the accepted trade lack link_message and link_message_key.' },
  { name: 'accept-content-type-text', requirement: 'OFFER-JSON-BODY', description: 'Accept responses (200 and 202) are labelled Content-Type: text/plain.' },
  { name: 'offer-stuck-in-progress', requirement: 'OFFER-202-STATUS-TERMINAL', description: 'An offer answered 202 never finishes processing: its status stays in_progress.' },
  { name: 'older-offer-acceptable', requirement: 'OFFER-NEWEST-ONLY', description: 'An offer superseded by a newer offer of the same user can still be accepted.' },
  { name: 'expired-offer-acceptable', requirement: 'OFFER-VALIDITY-PERIOD', description: 'The validity period is not enforced: an expired offer can be accepted.' },
  { name: 'expired-offer-409', requirement: 'OFFER-EXPIRED-410', description: 'An expired offer is answered 409 instead of 410.' },
  { name: 'offer-accept-repeatable', requirement: 'OFFER-SINGLE-EXECUTION', description: 'An offer whose processing has finished can be accepted (and executed) again.' },
  { name: 'accept-race', requirement: 'OFFER-SINGLE-EXECUTION-ATOMIC', description: 'The acceptable-check and the move to in progress are separated by an await, so simultaneous accepts all execute.' },
  { name: 'offer-ownership-unchecked', requirement: 'OFFER-OWNERSHIP', description: 'Any svc-user-id can accept any user\'s offer.' },
  { name: 'unknown-offer-500', requirement: 'OFFER-UNKNOWN-REJECTED', description: 'Accepting an unknown offer id causes a 500.' },
  { name: 'accept-bearer-not-required', requirement: 'OFFER-BEARER-REQUIRED', description: 'Accepting an offer without Authorization is let through.' },
  { name: 'accept-user-header-optional', requirement: 'OFFER-USER-HEADER-REQUIRED', description: 'Without svc-user-id the offer is accepted on behalf of its owner.' },
  { name: 'external-transaction-id-rejected', requirement: 'OFFER-EXTERNAL-TRANSACTION-ID', description: 'An accept carrying external_transaction_id is refused with 422.' },
  { name: 'accept-body-500', requirement: 'OFFER-ACCEPT-BODY-NOT-SHOWN', description: 'An accept that carries a request body (even {}) causes a 500.' },
  { name: 'no-accept-rate-limit', requirement: 'OFFER-RATE-LIMIT-429', description: 'Accepting offers has no rate limit: it never answers 429.' },
  { name: 'rate-limited-accept-executes', requirement: 'OFFER-RATE-LIMITED-NOT-EXECUTED', description: 'An accept over the rate limit answers 429 but executes the offer anyway.' },
];
