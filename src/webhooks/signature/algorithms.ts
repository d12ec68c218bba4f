// The RFC 9421 signature algorithms (section 3.3, IANA registry), verified
// with WebCrypto. ECDSA signatures are r||s of fixed length, which is
// WebCrypto's own format, so no DER conversion is needed.
import { webcrypto } from 'node:crypto';
import type { JWK } from 'jose';

export const SIGNATURE_ALGORITHMS = ['ed25519', 'ecdsa-p256-sha256', 'ecdsa-p384-sha384', 'rsa-pss-sha512', 'rsa-v1_5-sha256', 'hmac-sha256'] as const;
export type SignatureAlgorithm = (typeof SIGNATURE_ALGORITHMS)[number];

export function isSignatureAlgorithm(name: unknown): name is SignatureAlgorithm {
  return typeof name === 'string' && (SIGNATURE_ALGORITHMS as readonly string[]).includes(name);
}

interface WebCryptoAlgorithm {
  importParams: webcrypto.AlgorithmIdentifier | webcrypto.RsaHashedImportParams | webcrypto.EcKeyImportParams | webcrypto.HmacImportParams;
  verifyParams: webcrypto.AlgorithmIdentifier | webcrypto.RsaPssParams | webcrypto.EcdsaParams;
  kty: string;
  crv?: string;
}

const WEBCRYPTO: Record<SignatureAlgorithm, WebCryptoAlgorithm> = {
  ed25519: { importParams: { name: 'Ed25519' }, verifyParams: { name: 'Ed25519' }, kty: 'OKP', crv: 'Ed25519' },
  'ecdsa-p256-sha256': { importParams: { name: 'ECDSA', namedCurve: 'P-256' }, verifyParams: { name: 'ECDSA', hash: 'SHA-256' }, kty: 'EC', crv: 'P-256' },
  'ecdsa-p384-sha384': { importParams: { name: 'ECDSA', namedCurve: 'P-384' }, verifyParams: { name: 'ECDSA', hash: 'SHA-384' }, kty: 'EC', crv: 'P-384' },
  'rsa-pss-sha512': { importParams: { name: 'RSA-PSS', hash: 'SHA-512' }, verifyParams: { name: 'RSA-PSS', saltLength: 64 }, kty: 'RSA' },
  'rsa-v1_5-sha256': { importParams: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, verifyParams: { name: 'RSASSA-PKCS1-v1_5' }, kty: 'RSA' },
  'hmac-sha256': { importParams: { name: 'HMAC', hash: 'SHA-256' }, verifyParams: { name: 'HMAC' }, kty: 'oct' },
};

/** JOSE alg names that pin an RSA key to one of the two RSA algorithms. */
const RSA_BY_JOSE_ALG: Record<string, SignatureAlgorithm> = { PS512: 'rsa-pss-sha512', RS256: 'rsa-v1_5-sha256' };

/**
 * The algorithm a key implies, when it implies exactly one. An RSA key
 * without alg could be either RSA algorithm: the signature's alg decides.
 */
export function algorithmForJwk(jwk: JWK): SignatureAlgorithm | undefined {
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519') return 'ed25519';
  if (jwk.kty === 'EC' && jwk.crv === 'P-256') return 'ecdsa-p256-sha256';
  if (jwk.kty === 'EC' && jwk.crv === 'P-384') return 'ecdsa-p384-sha384';
  if (jwk.kty === 'RSA') return jwk.alg ? RSA_BY_JOSE_ALG[jwk.alg] : undefined;
  if (jwk.kty === 'oct') return 'hmac-sha256';
  return undefined;
}

/** Whether a key can be used with an algorithm at all (type and curve). */
export function keyFitsAlgorithm(jwk: JWK, algorithm: SignatureAlgorithm): boolean {
  const wanted = WEBCRYPTO[algorithm];
  if (jwk.kty !== wanted.kty || (wanted.crv && jwk.crv !== wanted.crv)) return false;
  return !(jwk.kty === 'RSA' && jwk.alg && RSA_BY_JOSE_ALG[jwk.alg] !== algorithm);
}

/** Only the key material: WebCrypto rejects a JWK whose alg or key_ops name another algorithm family. */
function keyMaterial(jwk: JWK): webcrypto.JsonWebKey {
  const { kty, crv, x, y, n, e, k } = jwk;
  return Object.fromEntries(Object.entries({ kty, crv, x, y, n, e, k }).filter(([, v]) => v !== undefined)) as webcrypto.JsonWebKey;
}

export async function verifySignatureBytes(algorithm: SignatureAlgorithm, jwk: JWK, data: Uint8Array, signature: Uint8Array): Promise<boolean> {
  const spec = WEBCRYPTO[algorithm];
  const key = await webcrypto.subtle.importKey('jwk', keyMaterial(jwk), spec.importParams, false, ['verify']);
  return webcrypto.subtle.verify(spec.verifyParams, key, signature, data);
}
