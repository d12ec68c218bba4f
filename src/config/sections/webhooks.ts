// Profile section "webhooks": typed view of schemas/profile/webhooks.schema.json,
// with the defaults the schema documents.
import type { OperationTemplate } from './operation.ts';

export type DigestAlgorithmName = 'sha-256' | 'sha-512';

export interface WebhookReceiverProfile {
  listenHost?: string;
  listenPort?: number;
  path?: string;
  publicUrl?: string;
  registeredOutOfBand?: boolean;
}

/** RFC 9421 HTTP Message Signatures. */
export interface Rfc9421SignatureProfile {
  scheme: 'rfc9421';
  jwksUrl?: string;
  jwksFile?: string;
  /** Base64 key for hmac-sha256. */
  sharedSecret?: string;
  label?: string;
  /** A string must be covered; an array lists alternatives of which one must be. */
  requiredComponents?: Array<string | string[]>;
}

/** A plain HMAC over configured parts: a profile choice, documented in the schema. */
export interface HmacSignatureProfile {
  scheme: 'hmac-sha256';
  secret: string;
  secretEncoding?: 'utf8' | 'base64' | 'hex';
  signedContent?: string[];
  separator?: string;
  encoding?: 'hex' | 'base64' | 'base64url';
  format?: string;
}

export type WebhookSignatureProfile = Rfc9421SignatureProfile | HmacSignatureProfile;

export interface WebhookUser {
  userId: string;
  userPid?: string;
}

export interface WebhooksProfile {
  receiver?: WebhookReceiverProfile;
  register?: OperationTemplate;
  trigger?: OperationTemplate;
  userId?: string;
  /** The identifier events carry for that user (user_pid), when it is not userId. */
  userPid?: string;
  /** More users events may be caused for: each webhook check holds one user, so with more users they run side by side. */
  additionalUsers?: WebhookUser[];
  riskEvaluationAction?: string;
  signature?: WebhookSignatureProfile;
  digestAlgorithms?: DigestAlgorithmName[];
  dateSkewSeconds?: number;
  deliveryTimeoutMs?: number;
  observationWindowMs?: number;
  retryDelaysMs?: number[];
  slowResponseMs?: number;
  /** How long a newly set up receiving address takes to take effect (not shown by the spec): every session waits it after setting one up. */
  addressPropagationMs?: number;
}

export const WEBHOOK_DEFAULTS = {
  listenHost: '127.0.0.1',
  listenPort: 0,
  path: '/ptas/webhooks/user-update',
  /**
   * The clock skew tolerated when the profile declares none (spec 5: not
   * shown): generous, and beyond it only a warning.
   */
  dateSkewSeconds: 300,
  /**
   * How long a check waits for a delivery when the profile declares no
   * deliveryTimeoutMs: generous, and nothing arriving within it is "not
   * observed" (ERROR), never a FAIL, since the spec shows no latency.
   */
  deliveryTimeoutMs: 30_000,
  observationWindowMs: 5_000,
  /**
   * Without a declared addressPropagationMs: how long new-address-takes-effect
   * waits before it causes one more event when the first reached an earlier
   * address (the spec shows no propagation time, so a miss after it is REVIEW).
   */
  addressPropagationWindowMs: 5_000,
  /** What a delivery is expected to be signed over when the profile does not say (spec 5 rule 5 names these headers); missing ones only warn. */
  requiredComponents: ['@method', ['@target-uri', '@path'], 'content-digest', 'date', 'x-bts-idempotency-key'] as Array<string | string[]>,
} as const;

/** Room on top of a declared retry delay for a loaded machine (a 100 ms timer was seen firing 300 ms late): a quarter more, plus this. */
const RETRY_MARGIN_MS = 1_000;

/**
 * How long to watch for a redelivery when the profile declares its retry
 * schedule: the first documented retry, with room for a loaded machine (a
 * quarter more, plus a second). Every check only asks whether an event came
 * again (or not), and one redelivery shows the schedule; a check stops
 * watching once it has what it asks for.
 */
export function retryObservationWindowMs(retryDelaysMs: readonly number[]): number {
  const first = retryDelaysMs[0] ?? 0;
  return Math.ceil(first * 1.25) + RETRY_MARGIN_MS;
}

/** The observation window: derived from a declared retry schedule (never shorter than an explicit window), else the explicit window or the default. */
export function observationWindowMs(profile: Pick<WebhooksProfile, 'observationWindowMs' | 'retryDelaysMs'>): number {
  if (!profile.retryDelaysMs?.length) return profile.observationWindowMs ?? WEBHOOK_DEFAULTS.observationWindowMs;
  return Math.max(profile.observationWindowMs ?? 0, retryObservationWindowMs(profile.retryDelaysMs));
}
