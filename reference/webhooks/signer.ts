// Signs deliveries with RFC 9421 HTTP Message Signatures (Ed25519 by
// default; ECDSA P-256 with SHA-256 under the webhook-signature-ecdsa-p256
// variant, the deployed API's choice; hmac-sha256 with a shared secret under
// webhook-signature-hmac), and publishes the public key as a JWK Set (an
// empty one for a shared secret, which is never published). The reference
// builds its signature base itself for its fixed set of components rather
// than sharing the suite's verifier, so a mistake on one side shows on the other.
import { KeyObject, randomBytes, randomUUID, sign as nodeSign, webcrypto } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { serializeDictionary, serializeInnerList, type InnerList } from 'structured-headers';

export const SIGNATURE_LABEL = 'sig1';
/** The keyid of hmac-sha256 signatures: the secret has no kid of its own. */
export const SHARED_SECRET_KEYID = 'webhook-shared-secret';

/** The RFC 9421 algorithms the reference can sign with. */
export type SigningAlgorithm = 'ed25519' | 'ecdsa-p256-sha256' | 'hmac-sha256';

type SigningKey = webcrypto.CryptoKey;

const JOSE_ALG = { ed25519: 'EdDSA', 'ecdsa-p256-sha256': 'ES256' } as const;
// WebCrypto's ECDSA signature is r‖s of fixed length, which is what RFC 9421 3.3.4 signs with; no DER.
const WEBCRYPTO_SIGN: Record<SigningAlgorithm, webcrypto.AlgorithmIdentifier | webcrypto.EcdsaParams> = {
  ed25519: { name: 'Ed25519' },
  'ecdsa-p256-sha256': { name: 'ECDSA', hash: 'SHA-256' },
  'hmac-sha256': { name: 'HMAC' },
};

/** What the signer needs of an outgoing request: derived components come from method and URL. */
export interface OutgoingRequest {
  method: string;
  targetUri: string;
  /** Header values by lower-case name. */
  headers: Record<string, string>;
}

export interface SignatureFields {
  'signature-input': string;
  signature: string;
}

/** How one signature is made; every field but the first two is a fault's or a variant's. */
export interface SignOptions {
  /** Sign with a key that is not published (webhook-signature-wrong-key). */
  withUnpublishedKey?: boolean;
  /** Sets expires this many seconds after created. */
  expiresInSeconds?: number;
  /** Write the bytes in base64url, as the deployed API's examples do (REAL-API-NOTES), not RFC 8941's base64. */
  base64url?: boolean;
  /** Date created this many seconds before now (webhook-signature-expired). */
  createdSecondsAgo?: number;
  /** Components listed in Signature-Input whose lines the base leaves out (webhook-signature-component-outside-base). */
  leftOutOfBase?: readonly string[];
  /** ECDSA only: the DER encoding instead of r‖s (webhook-signature-ecdsa-der). */
  derEncoded?: boolean;
}

function componentValue(request: OutgoingRequest, component: string): string {
  if (component === '@method') return request.method;
  if (component === '@target-uri') return request.targetUri;
  const value = request.headers[component];
  if (value === undefined) throw new Error(`reference bug: covered header ${component} is not set`);
  return value.trim();
}

async function asymmetricKeyPair(algorithm: 'ed25519' | 'ecdsa-p256-sha256'): Promise<{ privateKey: SigningKey; publicKey: SigningKey }> {
  const pair = algorithm === 'ed25519' ? await generateKeyPair('EdDSA', { crv: 'Ed25519' }) : await generateKeyPair('ES256');
  return pair as { privateKey: SigningKey; publicKey: SigningKey };
}

function hmacKey(secret: Uint8Array): Promise<SigningKey> {
  return webcrypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
}

export class WebhookSigner {
  private constructor(
    private readonly algorithm: SigningAlgorithm,
    private readonly publishedKey: SigningKey,
    private readonly unpublishedKey: SigningKey,
    private readonly keyid: string,
    private readonly jwk: JWK | undefined,
  ) {}

  /** sharedSecret (base64) is the hmac-sha256 key; the asymmetric algorithms make a key pair per signer. */
  static async create(algorithm: SigningAlgorithm = 'ed25519', options: { sharedSecret?: string } = {}): Promise<WebhookSigner> {
    if (algorithm === 'hmac-sha256') {
      if (!options.sharedSecret) throw new Error('reference bug: hmac-sha256 signing needs a shared secret');
      const secret = Buffer.from(options.sharedSecret, 'base64');
      // The wrong-key fault's secret: one the partner was never given.
      return new WebhookSigner(algorithm, await hmacKey(secret), await hmacKey(randomBytes(secret.length || 32)), SHARED_SECRET_KEYID, undefined);
    }
    const published = await asymmetricKeyPair(algorithm);
    // A second key that is never published: what the wrong-key fault signs with.
    const unpublished = await asymmetricKeyPair(algorithm);
    const jwk = { ...(await exportJWK(published.publicKey)), kid: `webhook-${randomUUID()}`, alg: JOSE_ALG[algorithm], use: 'sig' };
    return new WebhookSigner(algorithm, published.privateKey, unpublished.privateKey, jwk.kid, jwk);
  }

  /** The public key set; empty for a shared secret, which only the partner and the service may know. */
  jwks(): { keys: JWK[] } {
    return { keys: this.jwk ? [this.jwk] : [] };
  }

  /**
   * Signature-Input and Signature over the covered components, in the order
   * given, with created, keyid and alg (and expires when a lifetime is given).
   */
  async sign(request: OutgoingRequest, covered: readonly string[], options: SignOptions = {}): Promise<SignatureFields> {
    const created = Math.floor(Date.now() / 1000) - (options.createdSecondsAgo ?? 0);
    const parameters = new Map<string, string | number>([['created', created]]);
    if (options.expiresInSeconds !== undefined) parameters.set('expires', created + options.expiresInSeconds);
    parameters.set('keyid', this.keyid);
    parameters.set('alg', this.algorithm);
    const params: InnerList = [covered.map((name) => [name, new Map()]), parameters];
    const serializedParams = serializeInnerList(params);
    const inBase = covered.filter((name) => !options.leftOutOfBase?.includes(name));
    const base = [...inBase.map((name) => `"${name}": ${componentValue(request, name)}`), `"@signature-params": ${serializedParams}`].join('\n');
    const signature = await this.signatureBytes(new TextEncoder().encode(base), options);
    const value = options.base64url
      ? `${SIGNATURE_LABEL}=:${Buffer.from(signature).toString('base64url')}:`
      : serializeDictionary(new Map([[SIGNATURE_LABEL, [signature, new Map()]]]));
    return { 'signature-input': `${SIGNATURE_LABEL}=${serializedParams}`, signature: value };
  }

  private async signatureBytes(data: Uint8Array, options: SignOptions): Promise<Uint8Array> {
    const key = options.withUnpublishedKey ? this.unpublishedKey : this.publishedKey;
    // Node's own sign() writes ECDSA as DER by default: the mistake the fault makes (RFC 9421 3.3.4 wants r‖s).
    if (options.derEncoded && this.algorithm === 'ecdsa-p256-sha256') return new Uint8Array(nodeSign('sha256', data, KeyObject.from(key)));
    return new Uint8Array(await webcrypto.subtle.sign(WEBCRYPTO_SIGN[this.algorithm], key, data));
  }
}
