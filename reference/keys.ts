// Token signing: Ed25519 JWTs (jose), with the public key published as a JWK
// Set. The jwks-wrong-key fault publishes an unrelated key instead. A second,
// unpublished HS256 key signs refresh tokens under the
// refresh-token-internal-key variant: only the issuer ever verifies a
// refresh token, so nothing obliges it to use a published key.
// Under the deterministic-tokens condition access tokens carry no jti: the
// same claims within one whole second then sign to the same bytes (Ed25519
// signatures are deterministic, RFC 8032 5.1.6).
import { randomBytes, randomUUID } from 'node:crypto';
import { decodeProtectedHeader, exportJWK, generateKeyPair, jwtVerify, SignJWT, type JWK, type JWTPayload, type CryptoKey } from 'jose';

export type TokenUse = 'access' | 'refresh';

export interface TokenClaims extends JWTPayload {
  token_use: TokenUse;
  client_id: string;
  /** Absent only from access tokens under the deterministic-tokens condition; refresh tokens always carry one. */
  jti?: string;
  exp: number;
  iat: number;
}

export interface SignOptions {
  /** 'internal': the unpublished HS256 key instead of the published Ed25519 one. */
  key?: 'published' | 'internal';
  /** Another issuer than the reference's: such a token never verifies here (the refreshed-access-token-rejected fault). */
  issuer?: string;
  /** No jti claim (the deterministic-tokens condition's access tokens). */
  withoutJti?: boolean;
  /** exp in milliseconds rather than seconds (the jwt-exp-milliseconds fault): such a token never expires here. */
  expInMilliseconds?: boolean;
}

export class TokenKeys {
  /** Never leaves the process: the refresh-token-internal-key variant's signing secret. */
  private readonly internalSecret = new Uint8Array(randomBytes(32));

  private constructor(
    private readonly privateKey: CryptoKey,
    private readonly publicKey: CryptoKey,
    readonly kid: string,
    private readonly published: JWK,
    readonly issuer: string,
  ) {}

  static async create(issuer: string, publishWrongKey: boolean): Promise<TokenKeys> {
    const { privateKey, publicKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
    const kid = randomUUID();
    let publishedKey = publicKey;
    if (publishWrongKey) publishedKey = (await generateKeyPair('EdDSA', { crv: 'Ed25519' })).publicKey;
    const jwk = { ...(await exportJWK(publishedKey)), kid, alg: 'EdDSA', use: 'sig' };
    return new TokenKeys(privateKey, publicKey, kid, jwk, issuer);
  }

  jwks(): { keys: JWK[] } {
    return { keys: [this.published] };
  }

  async sign(use: TokenUse, clientId: string, ttlSeconds: number, jti = randomUUID(), options: SignOptions = {}): Promise<string> {
    const internal = options.key === 'internal';
    const typ = use === 'access' ? 'at+jwt' : 'rt+jwt';
    // One reading of the clock for iat and exp, so both fall in the same second.
    const now = Math.floor(Date.now() / 1000);
    const jwt = new SignJWT({ token_use: use, client_id: clientId })
      .setProtectedHeader(internal ? { alg: 'HS256', typ } : { alg: 'EdDSA', kid: this.kid, typ })
      .setIssuer(options.issuer ?? this.issuer)
      .setSubject(clientId);
    if (!options.withoutJti) jwt.setJti(jti);
    return jwt
      .setIssuedAt(now)
      .setExpirationTime((now + ttlSeconds) * (options.expInMilliseconds ? 1000 : 1))
      .sign(internal ? this.internalSecret : this.privateKey);
  }

  /** Verifies signature, issuer and expiry; undefined for anything invalid. Each key only with its own algorithm. */
  async verify(token: string): Promise<TokenClaims | undefined> {
    try {
      const internal = decodeProtectedHeader(token).alg === 'HS256';
      const { payload } = internal
        ? await jwtVerify(token, this.internalSecret, { issuer: this.issuer, algorithms: ['HS256'] })
        : await jwtVerify(token, this.publicKey, { issuer: this.issuer, algorithms: ['EdDSA'] });
      return payload as TokenClaims;
    } catch {
      return undefined;
    }
  }
}
