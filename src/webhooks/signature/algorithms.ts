// The RFC 9421 signature algorithms (section 3.3, IANA registry), verified
// with WebCrypto. ECDSA signatures are r||s of fixed length, which is
// WebCrypto's own format, so no DER conversion is needed. A DER-encoded
// ECDSA signature (what most crypto libraries, Node's sign() included, write
// by default) does not verify, and is never converted: RFC 9421 3.3.4 and
// 3.3.5 require r‖s. derEncodingHint() only says why it failed.
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

/** The r‖s length each ECDSA algorithm requires, and the RFC 9421 section that says so. */
const ECDSA_SIGNATURE_BYTES: Partial<Record<SignatureAlgorithm, { bytes: number; section: string }>> = {
  'ecdsa-p256-sha256': { bytes: 64, section: '3.3.4' },
  'ecdsa-p384-sha384': { bytes: 96, section: '3.3.5' },
};

/** Whether bytes are one DER SEQUENCE of two INTEGERs (ASN.1 Ecdsa-Sig-Value), each no longer than half the r‖s form plus a sign byte. */
function isDerEcdsaSignature(bytes: Uint8Array, rsBytes: number): boolean {
  if (bytes.length < 8 || bytes[0] !== 0x30 || bytes[1] !== bytes.length - 2 || bytes[2] !== 0x02) return false;
  const rLength = bytes[3]!;
  const sAt = 4 + rLength;
  if (rLength < 1 || rLength > rsBytes / 2 + 1 || bytes[sAt] !== 0x02) return false;
  const sLength = bytes[sAt + 1] ?? 0;
  return sLength >= 1 && sLength <= rsBytes / 2 + 1 && sAt + 2 + sLength === bytes.length;
}

/**
 * Why an ECDSA signature that did not verify could not: its bytes are the
 * DER encoding, not r‖s. undefined for any other algorithm or bytes.
 */
export function derEncodingHint(algorithm: SignatureAlgorithm, signature: Uint8Array): string | undefined {
  const rs = ECDSA_SIGNATURE_BYTES[algorithm];
  if (rs === undefined || signature.length === rs.bytes || !isDerEcdsaSignature(signature, rs.bytes)) return undefined;
  return `is DER-encoded (${signature.length} bytes); RFC 9421 ${rs.section} requires the ${rs.bytes}-byte r‖s concatenation`;
}
