// Token signing: Ed25519 JWTs (jose), with the public key published as a JWK
// Set. The jwks-wrong-key fault publishes an unrelated key instead.
import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, jwtVerify, SignJWT, type JWK, type JWTPayload, type CryptoKey } from 'jose';

export type TokenUse = 'access' | 'refresh';

export interface TokenClaims extends JWTPayload {
  token_use: TokenUse;
  client_id: string;
  jti: string;
  exp: number;
  iat: number;
}

export class TokenKeys {
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

  async sign(use: TokenUse, clientId: string, ttlSeconds: number, jti = randomUUID()): Promise<string> {
    return new SignJWT({ token_use: use, client_id: clientId })
      .setProtectedHeader({ alg: 'EdDSA', kid: this.kid, typ: use === 'access' ? 'at+jwt' : 'rt+jwt' })
      .setIssuer(this.issuer)
      .setSubject(clientId)
      .setJti(jti)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
      .sign(this.privateKey);
  }

  /** Verifies signature, issuer and expiry; undefined for anything invalid. */
  async verify(token: string): Promise<TokenClaims | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.publicKey, { issuer: this.issuer, algorithms: ['EdDSA'] });
      return payload as TokenClaims;
    } catch {
      return undefined;
    }
  }
}
