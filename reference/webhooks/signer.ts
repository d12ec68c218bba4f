// Signs deliveries with RFC 9421 HTTP Message Signatures (Ed25519 by
// default; ECDSA P-256 with SHA-256 under the webhook-signature-ecdsa-p256
// variant, the deployed API's choice), and publishes the public key as a JWK
// Set. The reference builds its signature base itself for its fixed set of
// components rather than sharing the suite's verifier, so a mistake on one
// side shows on the other.
import { randomUUID, webcrypto } from 'node:crypto';
import { exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';
import { serializeDictionary, serializeInnerList, type InnerList } from 'structured-headers';

export const SIGNATURE_LABEL = 'sig1';

/** The RFC 9421 algorithms the reference can sign with. */
export type SigningAlgorithm = 'ed25519' | 'ecdsa-p256-sha256';

const JOSE_ALG: Record<SigningAlgorithm, 'EdDSA' | 'ES256'> = { ed25519: 'EdDSA', 'ecdsa-p256-sha256': 'ES256' };
// WebCrypto's ECDSA signature is r‖s of fixed length, which is what RFC 9421 3.3.4 signs with; no DER.
const WEBCRYPTO_SIGN: Record<SigningAlgorithm, webcrypto.AlgorithmIdentifier | webcrypto.EcdsaParams> = {
  ed25519: { name: 'Ed25519' },
  'ecdsa-p256-sha256': { name: 'ECDSA', hash: 'SHA-256' },
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

function componentValue(request: OutgoingRequest, component: string): string {
  if (component === '@method') return request.method;
  if (component === '@target-uri') return request.targetUri;
  const value = request.headers[component];
  if (value === undefined) throw new Error(`reference bug: covered header ${component} is not set`);
  return value.trim();
}

async function keyPair(algorithm: SigningAlgorithm): Promise<{ privateKey: CryptoKey; publicKey: CryptoKey }> {
  return algorithm === 'ed25519' ? generateKeyPair('EdDSA', { crv: 'Ed25519' }) : generateKeyPair('ES256');
}

export class WebhookSigner {
  private constructor(
    private readonly algorithm: SigningAlgorithm,
    private readonly publishedKey: CryptoKey,
    private readonly unpublishedKey: CryptoKey,
    private readonly jwk: JWK,
  ) {}

  static async create(algorithm: SigningAlgorithm = 'ed25519'): Promise<WebhookSigner> {
    const published = await keyPair(algorithm);
    // A second key that is never published: what the wrong-key fault signs with.
    const unpublished = await keyPair(algorithm);
    const jwk = { ...(await exportJWK(published.publicKey)), kid: `webhook-${randomUUID()}`, alg: JOSE_ALG[algorithm], use: 'sig' };
    return new WebhookSigner(algorithm, published.privateKey, unpublished.privateKey, jwk);
  }

  jwks(): { keys: JWK[] } {
    return { keys: [this.jwk] };
  }

  /**
   * Signature-Input and Signature over the covered components, in the order
   * given; expires when a lifetime is given; base64url writes the signature
   * bytes as the deployed API's examples do (REAL-API-NOTES), not as RFC 8941's base64.
   */
  async sign(request: OutgoingRequest, covered: readonly string[], options: { withUnpublishedKey?: boolean; expiresInSeconds?: number; base64url?: boolean } = {}): Promise<SignatureFields> {
    const created = Math.floor(Date.now() / 1000);
    const parameters = new Map<string, string | number>([['created', created]]);
    if (options.expiresInSeconds !== undefined) parameters.set('expires', created + options.expiresInSeconds);
    parameters.set('keyid', this.jwk.kid!);
    parameters.set('alg', this.algorithm);
    const params: InnerList = [covered.map((name) => [name, new Map()]), parameters];
    const serializedParams = serializeInnerList(params);
    const base = [...covered.map((name) => `"${name}": ${componentValue(request, name)}`), `"@signature-params": ${serializedParams}`].join('\n');
    const key = options.withUnpublishedKey ? this.unpublishedKey : this.publishedKey;
    const signature = await webcrypto.subtle.sign(WEBCRYPTO_SIGN[this.algorithm], key, new TextEncoder().encode(base));
    const value = options.base64url
      ? `${SIGNATURE_LABEL}=:${Buffer.from(signature).toString('base64url')}:`
      : serializeDictionary(new Map([[SIGNATURE_LABEL, [new Uint8Array(signature), new Map()]]]));
    return { 'signature-input': `${SIGNATURE_LABEL}=${serializedParams}`, signature: value };
  }
}
