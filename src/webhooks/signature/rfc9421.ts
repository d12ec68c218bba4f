// Verifies RFC 9421 HTTP Message Signatures on a delivery (section 3.2):
// Signature-Input and Signature are structured-field dictionaries keyed by
// label; each label's inner list names the covered components and carries
// created, expires, keyid and alg. The verifier rebuilds the signature base
// from the message as received and checks it with a key from the profile.
import type { JWK, JSONWebKeySet } from 'jose';
import { parseDictionary, type Dictionary, type InnerList } from 'structured-headers';
import { fieldValue } from '../delivery.ts';
import { algorithmForJwk, isSignatureAlgorithm, keyFitsAlgorithm, verifySignatureBytes, type SignatureAlgorithm } from './algorithms.ts';
import { buildSignatureBase, SignatureBaseError, type SignedRequest } from './base.ts';
import type { SignatureVerdict } from './verdict.ts';

export interface Rfc9421Keys {
  jwks?: JSONWebKeySet;
  /** Key bytes for hmac-sha256. */
  sharedSecret?: Uint8Array;
}

export interface Rfc9421Policy {
  /** Verify only this label (default: every label; one must verify). */
  label?: string;
  /** A string must be covered; an array lists alternatives. */
  requiredComponents: ReadonlyArray<string | readonly string[]>;
  /** Tolerance for created in the future and expires in the past. */
  skewSeconds: number;
  now: Date;
}

interface LabelResult {
  label: string;
  verified: boolean;
  reason: string;
  covered?: string[];
  keyid?: string;
  algorithm?: string;
  created?: number;
  /** The signature base the suite rebuilt, for comparing with the signer's. */
  base?: string;
}

function parseField(name: string, value: string | undefined): Dictionary | string {
  if (value === undefined) return `no ${name} header`;
  try {
    return parseDictionary(value);
  } catch (error) {
    return `${name} is not a structured-field dictionary (RFC 8941): ${(error as Error).message}`;
  }
}

function missingComponents(covered: readonly string[], required: Rfc9421Policy['requiredComponents']): string[] {
  return required.filter((need) => !(typeof need === 'string' ? [need] : need).some((n) => covered.includes(n))).map((need) => (typeof need === 'string' ? need : need.join(' or ')));
}

function candidateKeys(keys: Rfc9421Keys, keyid: string | undefined): JWK[] {
  // A key without kid might be the one a keyid names: it is tried too.
  const fromSet = (keys.jwks?.keys ?? []).filter((k) => keyid === undefined || k.kid === keyid || k.kid === undefined);
  const secret = keys.sharedSecret ? [{ kty: 'oct', k: Buffer.from(keys.sharedSecret).toString('base64url') } satisfies JWK] : [];
  return [...fromSet, ...secret];
}

async function verifyLabel(message: SignedRequest, label: string, input: InnerList, signature: ArrayBuffer, keys: Rfc9421Keys, policy: Rfc9421Policy): Promise<LabelResult> {
  const covered = input[0].map(([name]) => String(name));
  const params = input[1];
  const keyid = params.get('keyid');
  const alg = params.get('alg');
  const created = params.get('created');
  const expires = params.get('expires');
  const result: LabelResult = { label, verified: false, reason: '', covered, keyid: typeof keyid === 'string' ? keyid : undefined, created: typeof created === 'number' ? created : undefined };
  const fail = (reason: string): LabelResult => ({ ...result, reason });

  const missing = missingComponents(covered, policy.requiredComponents);
  if (missing.length) return fail(`signature ${label} does not cover ${missing.join(', ')} (covers ${covered.join(' ') || 'nothing'})`);
  const nowSeconds = policy.now.getTime() / 1000;
  if (created !== undefined && !Number.isInteger(created)) return fail(`signature ${label}: created is not an integer`);
  if (typeof created === 'number' && created > nowSeconds + policy.skewSeconds) {
    return fail(`signature ${label} was created ${Math.round(created - nowSeconds)} s in the future`);
  }
  if (expires !== undefined && !Number.isInteger(expires)) return fail(`signature ${label}: expires is not an integer`);
  if (typeof expires === 'number' && expires < nowSeconds - policy.skewSeconds) {
    return fail(`signature ${label} expired ${Math.round(nowSeconds - expires)} s before it arrived`);
  }
  if (alg !== undefined && !isSignatureAlgorithm(alg)) return fail(`signature ${label} names algorithm ${String(alg)}, which the suite does not support`);

  let base: string;
  try {
    base = buildSignatureBase(message, input);
  } catch (error) {
    if (error instanceof SignatureBaseError) return fail(`signature ${label}: cannot rebuild the signature base: ${error.message}`);
    throw error;
  }
  result.base = base;

  const keysToTry = candidateKeys(keys, result.keyid);
  if (keysToTry.length === 0) {
    const kids = (keys.jwks?.keys ?? []).map((k) => k.kid ?? '(no kid)').join(', ') || 'none';
    return fail(`signature ${label}: keyid ${result.keyid ?? '(none)'} is not in the configured key set (kids: ${kids})`);
  }
  const data = new TextEncoder().encode(base);
  const bytes = new Uint8Array(signature);
  const tried: string[] = [];
  for (const jwk of keysToTry) {
    const algorithm: SignatureAlgorithm | undefined = isSignatureAlgorithm(alg) ? (keyFitsAlgorithm(jwk, alg) ? alg : undefined) : algorithmForJwk(jwk);
    if (!algorithm) continue;
    tried.push(`${jwk.kid ?? jwk.kty} (${algorithm})`);
    let ok = false;
    try {
      ok = await verifySignatureBytes(algorithm, jwk, data, bytes);
    } catch {
      // A key WebCrypto cannot import is a key that does not verify.
    }
    if (ok) return { ...result, verified: true, algorithm, reason: `signature ${label} verifies with key ${jwk.kid ?? jwk.kty} (${algorithm})` };
  }
  if (tried.length === 0) return fail(`signature ${label}: no configured key fits algorithm ${String(alg ?? 'of the key (an RSA key needs alg PS512 or RS256)')}`);
  return fail(`signature ${label} does not verify with ${tried.join(', ')}`);
}

export async function verifyRfc9421(message: SignedRequest, keys: Rfc9421Keys, policy: Rfc9421Policy): Promise<SignatureVerdict> {
  const inputs = parseField('Signature-Input', fieldValue(message, 'signature-input'));
  const signatures = parseField('Signature', fieldValue(message, 'signature'));
  if (typeof inputs === 'string') return { verified: false, reason: inputs, details: {} };
  if (typeof signatures === 'string') return { verified: false, reason: signatures, details: {} };
  const labels = policy.label ? [policy.label] : [...inputs.keys()];
  if (labels.length === 0) return { verified: false, reason: 'Signature-Input names no signature', details: {} };

  const results: LabelResult[] = [];
  for (const label of labels) {
    const input = inputs.get(label);
    const signature = signatures.get(label);
    if (!input || !Array.isArray(input[0])) {
      results.push({ label, verified: false, reason: `Signature-Input has no inner list for label ${label}` });
    } else if (!signature || !(signature[0] instanceof ArrayBuffer)) {
      results.push({ label, verified: false, reason: `Signature has no byte sequence for label ${label}` });
    } else {
      results.push(await verifyLabel(message, label, input as InnerList, signature[0], keys, policy));
    }
  }
  const good = results.find((r) => r.verified);
  const details = { labels: results };
  if (good) return { verified: true, reason: good.reason, details };
  return { verified: false, reason: results.map((r) => r.reason).join('; '), details };
}
