// Picks the signature strategy the profile configures (webhooks.signature)
// and loads what it needs once: the JWK Set (fetched through the recording
// client, so the fetch is evidence) or the shared secret.
import type { JSONWebKeySet } from 'jose';
import { loadJwks, type JwksFetch } from '../../auth/jwks.ts';
import type { HttpClient } from '../../http/client.ts';
import type { WebhookSignatureProfile } from '../../config/sections/webhooks.ts';
import { WEBHOOK_DEFAULTS } from '../../config/sections/webhooks.ts';
import type { ReceivedDelivery } from '../delivery.ts';
import { verifyHmac } from './hmac.ts';
import { verifyRfc9421 } from './rfc9421.ts';
import type { SignatureVerdict } from './verdict.ts';

export type { SignatureVerdict } from './verdict.ts';

export interface SignatureStrategy {
  /** What is verified and with what, for the report. */
  description: string;
  verify(delivery: ReceivedDelivery, now: Date): Promise<SignatureVerdict>;
}

/** jwksFetch: how a key set on the target is fetched (auth.jwksAccess, and the bearer token it may need). */
export async function signatureStrategy(config: WebhookSignatureProfile, http: HttpClient, skewSeconds: number, jwksFetch: JwksFetch = {}): Promise<SignatureStrategy> {
  if (config.scheme === 'hmac-sha256') {
    http.redactor.addSecret(config.secret, 'webhook_secret');
    return { description: `HMAC-SHA256 over ${(config.signedContent ?? ['body']).join(', ')}`, verify: async (delivery) => verifyHmac(delivery, config) };
  }
  let jwks: JSONWebKeySet | undefined;
  if (config.jwksFile) jwks = await loadJwks({ kind: 'file', file: config.jwksFile }, http);
  else if (config.jwksUrl) jwks = await loadJwks({ kind: 'url', url: config.jwksUrl }, http, jwksFetch);
  if (config.sharedSecret) http.redactor.addSecret(config.sharedSecret, 'webhook_secret');
  const sharedSecret = config.sharedSecret ? Buffer.from(config.sharedSecret, 'base64') : undefined;
  if (!jwks && !sharedSecret) throw new Error('webhooks.signature (rfc9421) names no key: set jwksUrl, jwksFile or sharedSecret');
  const requiredComponents = config.requiredComponents ?? WEBHOOK_DEFAULTS.requiredComponents;
  const source = config.jwksFile ?? config.jwksUrl ?? 'the shared secret';
  return {
    description: `RFC 9421 signature with keys from ${source}`,
    verify: (delivery, now) => verifyRfc9421(delivery, { jwks, sharedSecret }, { label: config.label, requiredComponents, skewSeconds, now }),
  };
}

