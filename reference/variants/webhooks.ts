// Legitimate variants of the user-update webhook (spec 5 rule 5, 6.1, 6.2):
// deliveries the spec allows that the reference does not send by default.
// Switched on in reference/routes/webhooks.ts and reference/webhooks/ by
// ctx.variants.has(name).
import type { ResolvedProfile } from '../../src/config/profile.ts';
import { retryObservationWindowMs } from '../../src/config/sections/webhooks.ts';
import type { Variant } from './types.ts';
import { ADDRESS_PROPAGATION_MS } from '../webhooks/propagation.ts';
import { DEMO_WEBHOOK_SHARED_SECRET, type ReferenceOptions } from '../options.ts';

/**
 * A certification team that does not know the implementation's retry
 * schedule declares none, and picks an observation window of its own (here
 * the one the reference's default schedule would give).
 */
function withoutDeclaredRetrySchedule(profile: ResolvedProfile): ResolvedProfile {
  const webhooks = profile.webhooks;
  if (!webhooks?.retryDelaysMs) return profile;
  const { retryDelaysMs, ...rest } = webhooks;
  return { ...profile, webhooks: { ...rest, observationWindowMs: retryObservationWindowMs(retryDelaysMs) } };
}

/**
 * webhook-signature-hmac: the signature is checked with the shared secret
 * the partner was given, not with a published key; the covered components
 * the profile requires stay as they were.
 */
function withSharedSecret(profile: ResolvedProfile, options?: ReferenceOptions): ResolvedProfile {
  const signature = profile.webhooks?.signature;
  if (!profile.webhooks || signature?.scheme !== 'rfc9421') return profile;
  const sharedSecret = options?.webhookSharedSecret ?? DEMO_WEBHOOK_SHARED_SECRET;
  const required = signature.requiredComponents ? { requiredComponents: signature.requiredComponents } : {};
  return { ...profile, webhooks: { ...profile.webhooks, signature: { scheme: 'rfc9421', sharedSecret, ...required } } };
}

/** The profile of a team that does not know how long an address takes to take effect: no webhooks.addressPropagationMs. */
function withoutDeclaredPropagation(profile: ResolvedProfile): ResolvedProfile {
  if (!profile.webhooks) return profile;
  const { addressPropagationMs: _undeclared, ...webhooks } = profile.webhooks;
  return { ...profile, webhooks };
}

export const webhooksVariants: Variant[] = [
  {
    name: 'webhook-unrelated-notifications',
    area: 'webhooks',
    description:
      'With each user-update event the reference also sends an "offer status" notification of its own shape ({"event": "offer_status", "params": {offer_id, status, user_pid, timestamp}}, no action) to the same address, one just before and one just after the event, signed and digested like every delivery.',
    allowedBy:
      '6.2: "These kinds exist: ... offer status ... Their payloads, and which operation emits which event: not shown." 6 says the service "sends webhooks to an address that the partner sets up", and nothing says other kinds go elsewhere.',
  },
  {
    name: 'webhook-digest-sha512',
    area: 'webhooks',
    description: 'Content-Digest carries sha-512 only (sha-512=:…:), not sha-256.',
    allowedBy: '5: "how Signature and Content-Digest are computed: not shown". sha-512 is an active algorithm of RFC 9530, and the reference\'s profile declares webhooks.digestAlgorithms [sha-256, sha-512].',
  },
  {
    name: 'webhook-signature-more-components',
    area: 'webhooks',
    description:
      'The signature covers, in the deployed API\'s order, @method @target-uri host date content-digest content-type content-length x-bts-idempotency-key, with the parameters created and expires (five minutes after creation).',
    allowedBy:
      '5: "the signature algorithm, and how Signature ... [is] computed: not shown"; REAL-API-NOTES, covered components: "@method @target-uri host date content-digest content-type content-length x-bts-idempotency-key; parameters created and expires (expiry 5 minutes after creation)". Covering more than the profile\'s requiredComponents protects more, never less.',
  },
  {
    name: 'webhook-json-charset',
    area: 'webhooks',
    description: 'Deliveries are labelled Content-Type: application/json; charset=utf-8 (and signed that way).',
    allowedBy:
      '6.1: "Request headers: ... Content-Type (application/json)" names the media type; a parameter does not change it (RFC 9110 8.3.1: type/subtype followed by optional parameters), and how the value is written is not shown.',
  },
  {
    name: 'webhook-address-propagation-delayed',
    area: 'webhooks',
    description: `A receiving address set up anew takes effect ${ADDRESS_PROPAGATION_MS / 1000} s after the register operation answered (a client's first address at once); events caused meanwhile still go to the address before it. The profile declares no propagation time, as a team that does not know it would write.`,
    allowedBy: '6: "The service sends webhooks to an address that the partner sets up." How soon a new address is used is not shown; the check then causes one more event after a window before it can say anything.',
    adjustProfile: withoutDeclaredPropagation,
  },
  {
    name: 'webhook-retry-slower',
    area: 'webhooks',
    description:
      'An event that is not acknowledged is retried ten times later than by default (first retry 2 s after a 200 ms base), after the observation window of the suite; the profile declares no retry schedule, as a team that does not know it would write.',
    allowedBy: '6.2: "Retry and redelivery behaviour: not shown." The retry checks can then only WARN or REVIEW what they did not see.',
    adjustProfile: withoutDeclaredRetrySchedule,
  },
  {
    name: 'webhook-signature-ecdsa-p256',
    area: 'webhooks',
    description: 'Deliveries are signed with an ECDSA P-256 key (RFC 9421 ecdsa-p256-sha256, r‖s), published in the same JWK Set, instead of Ed25519.',
    allowedBy: '5: "the signature algorithm ... not shown"; REAL-API-NOTES, signature algorithm: "ECDSA P-256 with SHA-256 (ecdsa-p256-sha256): the signature is the 64-byte r‖s concatenation (RFC 9421 3.3.4)".',
  },
  {
    name: 'webhook-signature-base64url',
    area: 'webhooks',
    description: 'The Signature byte sequence is written in base64url (sig1=:…-…_…:) as in the deployed API\'s examples, where RFC 8941 byte sequences are base64; the signature verifies when read so (the suite warns).',
    allowedBy:
      '5: "how Signature ... [is] computed: not shown"; REAL-API-NOTES, signature encoding in examples: "base64url, where RFC 8941 byte sequences are base64: verify both, WARN on the non-standard one".',
  },
  {
    name: 'webhook-body-extra-members',
    area: 'webhooks',
    description:
      'The body carries members beside params (event "user-update", event_id, occurred_at) and every params object carries more than the listed fields (event_id, source).',
    allowedBy:
      '6.1: "Body shape: an object with params. The params for a verification result hold" action, success, user_pid and timestamp — what they hold, not that they hold nothing else; the params of the other actions are "not shown".',
  },
  {
    name: 'webhook-at-least-once',
    area: 'webhooks',
    description:
      'Delivery is at least once: the first acknowledgement of an event does not end it; the event is delivered once more after the first retry delay, under the same X-BTS-Idempotency-Key and with the same body, as a queue-backed sender that lost the acknowledgement would. That redelivery\'s acknowledgement ends it.',
    allowedBy:
      '5 rule 5: X-BTS-Idempotency-Key is there so that "a receiver can use them to verify and de-duplicate messages", which a sender that never repeats a message would not need; 6.2: "Retry and redelivery behaviour: not shown." The suite warns on one redelivery after a written acknowledgement, and fails two in a row.',
  },
  {
    name: 'webhook-signature-hmac',
    area: 'webhooks',
    description:
      'Deliveries are signed RFC 9421 hmac-sha256 with a shared secret (options.webhookSharedSecret, base64; PTAS_REF_WEBHOOK_SHARED_SECRET for `ptas reference`) instead of an asymmetric key; the webhook JWK Set stays served but empty, since a shared secret is never published. The profile declares webhooks.signature {scheme rfc9421, sharedSecret}.',
    allowedBy:
      '5: "the signature algorithm, and how Signature ... [is] computed: not shown"; hmac-sha256 is one of RFC 9421\'s registered algorithms (3.3.3), and nothing in 5 or 6 says the key is published.',
    conflictsWith: ['webhook-signature-ecdsa-p256'],
    adjustProfile: withSharedSecret,
  },
];
