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

export interface WebhooksProfile {
  receiver?: WebhookReceiverProfile;
  register?: OperationTemplate;
  trigger?: OperationTemplate;
  userId?: string;
  riskEvaluationAction?: string;
  signature?: WebhookSignatureProfile;
  digestAlgorithms?: DigestAlgorithmName[];
  dateSkewSeconds?: number;
  deliveryTimeoutMs?: number;
  observationWindowMs?: number;
  slowResponseMs?: number;
}

export const WEBHOOK_DEFAULTS = {
  listenHost: '127.0.0.1',
  listenPort: 0,
  path: '/ptas/webhooks/user-update',
  digestAlgorithms: ['sha-256', 'sha-512'] as DigestAlgorithmName[],
  dateSkewSeconds: 300,
  deliveryTimeoutMs: 10_000,
  observationWindowMs: 5_000,
  /** What a delivery must be signed over when the profile does not say (spec 5 rule 5 names these headers). */
  requiredComponents: ['@method', ['@target-uri', '@path'], 'content-digest', 'date', 'x-bts-idempotency-key'] as Array<string | string[]>,
} as const;
