// Everything about the reference implementation that can be configured, with
// defaults that make `ptas run` pass quickly and the limits findable by probes.
import { SPEC_USER_ID_HEADER } from '../src/config/profile.ts';

export interface ReferenceOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  clientId: string;
  clientSecret: string;
  /** Active fault names (see --list-faults). */
  faults: string[];
  /** Active legitimate variants (see --list-variants): behaviours the spec allows that the reference does not show by default. */
  variants: string[];
  /**
   * Active conditions (see --list-conditions): how real deployments behave
   * around a correct implementation (latency, proxies, transient answers, slow
   * webhooks, long processing …). None by default.
   */
  conditions: string[];
  /** Seed for the generated fixtures (users, offers). */
  seed: number;
  /** Access-token lifetime in seconds (expires_in). */
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** Token endpoint rate limit: sustained requests per second and burst size (token bucket). */
  tokenRatePerSecond: number;
  tokenBurst: number;
  /** Accept-offer rate limit (token bucket), per second and burst. */
  acceptRatePerSecond: number;
  acceptBurst: number;
  /** Largest accepted token-endpoint request body in bytes; one more byte is 413. */
  tokenBodyLimitBytes: number;
  /** Largest accepted body on other operations. */
  bodyLimitBytes: number;
  /** Trade offers: validity period after creation, in seconds (spec 8). */
  offerValiditySeconds: number;
  /** The short predefined processing time before accept answers 202 instead of 200 (spec 3.1, 8), in ms. */
  acceptPredefinedTimeMs: number;
  /** Default processing duration of an accepted offer, in ms (per-offer override at creation). */
  offerProcessingMs: number;
  /** Webhook deliveries: attempts per event (1 = no retry) and the first retry delay, doubling each time. */
  webhookMaxAttempts: number;
  webhookRetryBaseMs: number;
  /** Webhook deliveries: how long one attempt may take before it counts as failed, in ms. */
  webhookTimeoutMs: number;
  /** When set, every issued token and webhook Signature value is appended to this file (leak tests grep artifacts for them). */
  issuedTokenLog?: string;
  /** A second client that runs the service under its own licence (spec 4.2 rule 7). */
  ownLicenceClientId: string;
  /**
   * The key of RFC 9421 hmac-sha256 webhook signatures (base64), used only
   * with the webhook-signature-hmac variant; both sides of a delivery know
   * it, so it is never published in a JWK Set.
   */
  webhookSharedSecret: string;
  /**
   * The header that names the user an operation acts for (spec 5 rule 4:
   * svc-user-id). Another name, or the user-id-header-renamed variant
   * (x-partner-user-id when this stays the spec's), renames it everywhere.
   */
  userIdHeader: string;
}

// The spec's user-id header (5 rule 4), as the core names it.
export { SPEC_USER_ID_HEADER };

/**
 * The demo webhook shared secret (base64 of 32 bytes): like the demo client
 * secret, for a sandbox only; `ptas reference` takes another from
 * PTAS_REF_WEBHOOK_SHARED_SECRET.
 */
export const DEMO_WEBHOOK_SHARED_SECRET = Buffer.from('ptas-reference-demo-webhook-key!').toString('base64');

export const REFERENCE_DEFAULTS: ReferenceOptions = {
  host: '127.0.0.1',
  port: 8080,
  clientId: 'ptas-reference-client',
  clientSecret: 'reference-demo-secret-change-me',
  faults: [],
  variants: [],
  conditions: [],
  seed: 1,
  accessTokenTtlSeconds: 300,
  refreshTokenTtlSeconds: 86_400,
  tokenRatePerSecond: 200,
  tokenBurst: 50,
  acceptRatePerSecond: 50,
  acceptBurst: 20,
  tokenBodyLimitBytes: 16 * 1024,
  bodyLimitBytes: 64 * 1024,
  offerValiditySeconds: 30,
  acceptPredefinedTimeMs: 300,
  offerProcessingMs: 20,
  webhookMaxAttempts: 4,
  webhookRetryBaseMs: 100,
  webhookTimeoutMs: 1_000,
  ownLicenceClientId: 'ptas-own-licence-client',
  webhookSharedSecret: DEMO_WEBHOOK_SHARED_SECRET,
  userIdHeader: SPEC_USER_ID_HEADER,
};
