// Signs user-update deliveries with RFC 9421 HTTP Message Signatures
// (Ed25519), and publishes the public key as a JWK Set. The reference builds
// its signature base itself for its fixed set of components rather than
// sharing the suite's verifier, so a mistake on one side shows on the other.
import { randomUUID, webcrypto } from 'node:crypto';
import { exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';
import { serializeDictionary, serializeInnerList, type InnerList } from 'structured-headers';

export const SIGNATURE_LABEL = 'sig1';

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

export class WebhookSigner {
  private constructor(
    private readonly publishedKey: CryptoKey,
    private readonly unpublishedKey: CryptoKey,
    private readonly jwk: JWK,
  ) {}

  static async create(): Promise<WebhookSigner> {
    const published = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
    // A second key that is never published: what the wrong-key fault signs with.
    const unpublished = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
    const jwk = { ...(await exportJWK(published.publicKey)), kid: `webhook-${randomUUID()}`, alg: 'EdDSA', use: 'sig' };
    return new WebhookSigner(published.privateKey, unpublished.privateKey, jwk);
  }

  jwks(): { keys: JWK[] } {
    return { keys: [this.jwk] };
  }

  /** Signature-Input and Signature over the covered components, in the order given. */
  async sign(request: OutgoingRequest, covered: readonly string[], options: { withUnpublishedKey?: boolean } = {}): Promise<SignatureFields> {
    const params: InnerList = [
      covered.map((name) => [name, new Map()]),
      new Map<string, string | number>([
        ['created', Math.floor(Date.now() / 1000)],
        ['keyid', this.jwk.kid!],
        ['alg', 'ed25519'],
      ]),
    ];
    const serializedParams = serializeInnerList(params);
    const base = [...covered.map((name) => `"${name}": ${componentValue(request, name)}`), `"@signature-params": ${serializedParams}`].join('\n');
    const key = options.withUnpublishedKey ? this.unpublishedKey : this.publishedKey;
    const signature = await webcrypto.subtle.sign({ name: 'Ed25519' }, key, new TextEncoder().encode(base));
    return {
      'signature-input': `${SIGNATURE_LABEL}=${serializedParams}`,
      signature: serializeDictionary(new Map([[SIGNATURE_LABEL, [new Uint8Array(signature), new Map()]]])),
    };
  }
}
