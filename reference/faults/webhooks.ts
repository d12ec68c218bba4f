import type { Fault } from './types.ts';

export const webhooksFaults: Fault[] = [
  { name: 'webhook-put-method', requirement: 'WEBHOOK-POST-JSON', description: 'User-update deliveries are sent with PUT instead of POST.' },
  { name: 'webhook-content-type-text', requirement: 'WEBHOOK-POST-JSON', description: 'User-update deliveries are labelled Content-Type: text/plain.' },
  { name: 'webhook-idempotency-header-renamed', requirement: 'WEBHOOK-HEADERS-PRESENT', description: 'The idempotency key is sent as Idempotency-Key instead of X-BTS-Idempotency-Key.' },
  {
    name: 'webhook-digest-legacy-form',
    requirement: 'WEBHOOK-CONTENT-DIGEST',
    description: 'Content-Digest is written in RFC 3230\'s Digest form (sha-256=BASE64, no colons), not the dictionary of byte sequences RFC 9530 defines.',
    // A FAIL on RFC 9530 section 2 without any declaration: no webhooks.digestAlgorithms.
    minimalProfile: ['webhooks.register', 'webhooks.trigger', 'webhooks.userId'],
  },
  {
    name: 'webhook-digest-other-body',
    requirement: 'WEBHOOK-CONTENT-DIGEST',
    description: 'Content-Digest is computed over a pretty-printed body while the compact body is sent.',
    // A FAIL on RFC 9530 section 2 without any declaration: no webhooks.digestAlgorithms.
    minimalProfile: ['webhooks.register', 'webhooks.trigger', 'webhooks.userId'],
  },
  { name: 'webhook-date-rfc850', requirement: 'WEBHOOK-DATE', description: 'Date is written in the obsolete RFC 850 form ("Sunday, 06-Nov-94 08:49:37 GMT"), which RFC 9110 5.6.7 lets recipients read but forbids senders to generate.', minimalProfile: ['webhooks.register', 'webhooks.trigger', 'webhooks.userId'] },
  { name: 'webhook-stale-date', requirement: 'WEBHOOK-DATE', description: 'Date lies ten minutes in the past (and is signed that way).' },
  { name: 'webhook-signature-wrong-key', requirement: 'WEBHOOK-SIGNATURE', description: 'Deliveries are signed with a key that is not in the published JWK Set.' },
  { name: 'webhook-signature-skips-digest', requirement: 'WEBHOOK-SIGNATURE', description: 'The signature does not cover content-digest, so the body is not protected by it.' },
  {
    name: 'webhook-signature-expired',
    requirement: 'WEBHOOK-SIGNATURE',
    description: 'The signature was created ten minutes before sending and expired five minutes before it arrives (created and expires in the past); its bytes verify.',
  },
  {
    name: 'webhook-signature-component-outside-base',
    requirement: 'WEBHOOK-SIGNATURE',
    description: 'Signature-Input lists content-digest, but the signer leaves its line out of the signature base it signs, so the signature does not verify over the declared components.',
  },
  {
    name: 'webhook-signature-ecdsa-der',
    requirement: 'WEBHOOK-SIGNATURE',
    description:
      'Deliveries are signed with an ECDSA P-256 key (as webhook-signature-ecdsa-p256), but the signature is written DER-encoded (about 70 bytes) instead of the 64-byte r‖s concatenation RFC 9421 3.3.4 requires.',
  },
  {
    name: 'webhook-params-double-encoded',
    requirement: 'WEBHOOK-BODY-SCHEMA',
    description: 'params is sent as a JSON string holding the params object (encoded twice: {"params": "{\\"action\\": …}"}), not as an object.',
  },
  { name: 'webhook-body-without-params', requirement: 'WEBHOOK-BODY-SCHEMA', description: 'The event fields are sent at the top level of the body instead of inside params.' },
  { name: 'webhook-timestamp-milliseconds', requirement: 'WEBHOOK-BODY-SCHEMA', description: 'params.timestamp is Unix time in milliseconds instead of seconds.' },
  {
    name: 'webhook-failed-verification-without-success',
    requirement: 'WEBHOOK-BODY-SCHEMA',
    description: 'A failed verification is delivered with params that leave out success; a successful one keeps it.',
    // A FAIL on 6.1's success row without any declaration, after the generous default wait for an exact match.
    minimalProfile: ['webhooks.register', 'webhooks.trigger', 'webhooks.userId'],
  },
  {
    name: 'webhook-redelivery-without-timestamp',
    requirement: 'WEBHOOK-BODY-SCHEMA',
    description: 'Redeliveries (second and later attempts) of user-update events leave params.timestamp out; first attempts carry all four verification params.',
    // Caught without a declared retry schedule too: the redelivery comes within the default observation window.
    minimalProfile: ['webhooks.register', 'webhooks.trigger', 'webhooks.userId'],
  },
  { name: 'webhook-risk-status-completed', requirement: 'WEBHOOK-ACTIONS', description: 'A finished risk evaluation reports status "completed" instead of "finished".' },
  { name: 'webhook-204-not-acknowledged', requirement: 'WEBHOOK-ACK-CODES', description: 'A 204 answer is taken as a failure and the event is delivered again.' },
  { name: 'webhook-ack-requires-body', requirement: 'WEBHOOK-ACK-CODES', description: 'An answer without a body is taken as a failure, so every acknowledgement of the spec is retried.' },
  { name: 'webhook-new-key-per-attempt', requirement: 'WEBHOOK-IDEMPOTENCY-STABLE', description: 'Every redelivery carries a fresh X-BTS-Idempotency-Key.' },
  { name: 'webhook-key-per-user-action', requirement: 'WEBHOOK-IDEMPOTENCY-DISTINCT', description: 'The idempotency key is derived from user and action, so distinct events of one kind share it.' },
  { name: 'webhook-redelivery-unsigned', requirement: 'WEBHOOK-EVERY-DELIVERY', description: 'Redeliveries (second and later attempts) carry no Signature or Signature-Input; first attempts are signed.' },
  {
    name: 'webhook-other-kinds-undigested',
    requirement: 'WEBHOOK-EVERY-DELIVERY',
    description: 'Each user-update event comes with offer-status notifications to the same address (as webhook-unrelated-notifications), and those carry no Content-Digest.',
  },
  {
    name: 'webhook-address-change-ignored',
    requirement: 'WEBHOOK-ADDRESS-CHANGE',
    description: 'The dispatcher keeps using the first receiving address a client set up; setting up another one is answered 200 and ignored.',
    // A miss FAILs once the profile says how soon an address takes effect; without that it is only REVIEW.
    minimalProfile: ['webhooks.register', 'webhooks.trigger', 'webhooks.userId', 'webhooks.addressPropagationMs'],
  },
  { name: 'webhook-no-retry', requirement: 'WEBHOOK-RETRY-POLICY', description: 'A delivery that is not acknowledged (500, timeout) is never retried.' },
  { name: 'webhook-timeout-treated-as-delivered', requirement: 'WEBHOOK-RETRY-POLICY', description: 'A delivery whose answer times out counts as delivered and is not retried.' },
];
