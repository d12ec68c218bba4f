// Verifies RFC 9421 HTTP Message Signatures on a delivery (section 3.2):
// Signature-Input and Signature are structured-field dictionaries keyed by
// label; each label's inner list names the covered components and carries
// created, expires, keyid and alg. The verifier rebuilds the signature base
// from the message as received and checks it with a key from the profile.
import type { JWK, JSONWebKeySet } from 'jose';
import { parseDictionary, type Dictionary, type InnerList } from 'structured-headers';
import { fieldValue } from '../delivery.ts';
import { algorithmForJwk, derEncodingHint, isSignatureAlgorithm, keyFitsAlgorithm, verifySignatureBytes, type SignatureAlgorithm } from './algorithms.ts';
import { buildSignatureBase, SignatureBaseError, type SignedRequest } from './base.ts';
import type { SignatureProblem, SignatureVerdict } from './verdict.ts';

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
  /** The signature bytes verify over the rebuilt base, whatever the coverage and timing. */
  bytesVerify: boolean;
  /** Set when not verified: the class of the first problem (see SignatureProblem). */
  problem?: SignatureProblem;
  reason: string;
  covered?: string[];
  /** Required components the signature leaves out. */
  missing?: string[];
  keyid?: string;
  algorithm?: string;
  created?: number;
  expires?: number;
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

/** Tries the keys that may have made the signature; what verified, or why nothing did. */
async function verifyBytes(base: string, signature: ArrayBuffer, keys: Rfc9421Keys, keyid: string | undefined, alg: unknown): Promise<{ ok: true; algorithm: SignatureAlgorithm; key: string } | { ok: false; reason: string }> {
  const keysToTry = candidateKeys(keys, keyid);
  if (keysToTry.length === 0) {
    const kids = (keys.jwks?.keys ?? []).map((k) => k.kid ?? '(no kid)').join(', ') || 'none';
    return { ok: false, reason: `keyid ${keyid ?? '(none)'} is not in the configured key set (kids: ${kids})` };
  }
  const data = new TextEncoder().encode(base);
  const bytes = new Uint8Array(signature);
  const tried: string[] = [];
  const algorithmsTried: SignatureAlgorithm[] = [];
  for (const jwk of keysToTry) {
    const algorithm: SignatureAlgorithm | undefined = isSignatureAlgorithm(alg) ? (keyFitsAlgorithm(jwk, alg) ? alg : undefined) : algorithmForJwk(jwk);
    if (!algorithm) continue;
    tried.push(`${jwk.kid ?? jwk.kty} (${algorithm})`);
    algorithmsTried.push(algorithm);
    let ok = false;
    try {
      ok = await verifySignatureBytes(algorithm, jwk, data, bytes);
    } catch {
      // A key WebCrypto cannot import is a key that does not verify.
    }
    if (ok) return { ok: true, algorithm, key: jwk.kid ?? jwk.kty ?? 'key' };
  }
  if (tried.length === 0) return { ok: false, reason: `no configured key fits algorithm ${String(alg ?? 'of the key (an RSA key needs alg PS512 or RS256)')}` };
  // Not a compatibility path: a DER signature stays one that does not verify, the reason only says why.
  const der = algorithmsTried.map((algorithm) => derEncodingHint(algorithm, bytes)).find(Boolean);
  return { ok: false, reason: `does not verify with ${tried.join(', ')}${der ? `: the signature ${der}` : ''}` };
}

/**
 * Verifies one label. Coverage, timing and the signature bytes are each
 * judged, so a report can tell "signed, but not over the digest" from "not
 * signed by this key"; the reason names the problems in that order.
 */
async function verifyLabel(message: SignedRequest, label: string, input: InnerList, signature: ArrayBuffer, keys: Rfc9421Keys, policy: Rfc9421Policy): Promise<LabelResult> {
  const covered = input[0].map(([name]) => String(name));
  const params = input[1];
  const keyid = params.get('keyid');
  const alg = params.get('alg');
  const created = params.get('created');
  const expires = params.get('expires');
  const result: LabelResult = {
    label,
    verified: false,
    bytesVerify: false,
    reason: '',
    covered,
    keyid: typeof keyid === 'string' ? keyid : undefined,
    created: typeof created === 'number' ? created : undefined,
    expires: typeof expires === 'number' ? expires : undefined,
  };
  const problems: Array<{ problem: SignatureProblem; text: string }> = [];
  // text either continues the sentence ("does not cover …") or follows a colon (": cannot rebuild …").
  const problem = (kind: SignatureProblem, text: string) => problems.push({ problem: kind, text: `signature ${label}${text.startsWith(':') ? '' : ' '}${text}` });

  const missing = missingComponents(covered, policy.requiredComponents);
  if (missing.length) {
    result.missing = missing;
    problem('coverage', `does not cover ${missing.join(', ')} (covers ${covered.join(' ') || 'nothing'})`);
  }
  const nowSeconds = policy.now.getTime() / 1000;
  if (created !== undefined && !Number.isInteger(created)) problem('signature', 'has a created that is not an integer');
  else if (typeof created === 'number' && created > nowSeconds + policy.skewSeconds) problem('timing', `was created ${Math.round(created - nowSeconds)} s in the future`);
  if (expires !== undefined && !Number.isInteger(expires)) problem('signature', 'has an expires that is not an integer');
  else if (typeof expires === 'number' && expires < nowSeconds - policy.skewSeconds) problem('signature', `expired ${Math.round(nowSeconds - expires)} s before it arrived`);

  if (alg !== undefined && !isSignatureAlgorithm(alg)) {
    problem('signature', `names algorithm ${String(alg)}, which the suite does not support`);
  } else {
    let base: string | undefined;
    try {
      base = buildSignatureBase(message, input);
    } catch (error) {
      if (!(error instanceof SignatureBaseError)) throw error;
      problem('signature', `: cannot rebuild the signature base: ${error.message}`);
    }
    if (base !== undefined) {
      result.base = base;
      const bytes = await verifyBytes(base, signature, keys, result.keyid, alg);
      if (bytes.ok) {
        result.bytesVerify = true;
        result.algorithm = bytes.algorithm;
        if (!problems.length) return { ...result, verified: true, reason: `signature ${label} verifies with key ${bytes.key} (${bytes.algorithm})` };
      } else {
        problem('signature', bytes.reason.startsWith('does not') ? bytes.reason : `: ${bytes.reason}`);
      }
    }
  }
  // A signature that does not verify (or has expired) is that, whatever else is wrong with it.
  const decisive = problems.find((p) => p.problem === 'signature') ?? problems[0]!;
  return { ...result, problem: decisive.problem, reason: problems.map((p) => p.text).join('; ') };
}

/**
 * The Signature field with base64url byte sequences rewritten as base64, or
 * undefined when there is nothing to rewrite. REAL-API-NOTES: the deployed
 * API's examples write signatures in base64url, where RFC 8941 byte
 * sequences are base64; both are verified, the non-standard one with a warning.
 */
function base64urlAsBase64(value: string): string | undefined {
  const rewritten = value.replace(/:([A-Za-z0-9_-]+=*):/g, (_, bytes: string) => `:${bytes.replace(/-/g, '+').replace(/_/g, '/')}:`);
  return rewritten === value ? undefined : rewritten;
}

/** The Signature dictionary, read leniently: a base64url byte sequence is read as what it encodes, and said so. */
function parseSignatures(value: string | undefined): { signatures: Dictionary; base64url: boolean } | string {
  const strict = parseField('Signature', value);
  if (typeof strict !== 'string') return { signatures: strict, base64url: false };
  const rewritten = value === undefined ? undefined : base64urlAsBase64(value);
  const lenient = rewritten === undefined ? strict : parseField('Signature', rewritten);
  return typeof lenient === 'string' ? strict : { signatures: lenient, base64url: true };
}

export async function verifyRfc9421(message: SignedRequest, keys: Rfc9421Keys, policy: Rfc9421Policy): Promise<SignatureVerdict> {
  const inputs = parseField('Signature-Input', fieldValue(message, 'signature-input'));
  const parsed = parseSignatures(fieldValue(message, 'signature'));
  if (typeof inputs === 'string') return { verified: false, problem: 'signature', reason: inputs, details: {} };
  if (typeof parsed === 'string') return { verified: false, problem: 'signature', reason: parsed, details: {} };
  const { signatures, base64url } = parsed;
  const labels = policy.label ? [policy.label] : [...inputs.keys()];
  if (labels.length === 0) return { verified: false, problem: 'signature', reason: 'Signature-Input names no signature', details: {} };

  const results: LabelResult[] = [];
  for (const label of labels) {
    const input = inputs.get(label);
    const signature = signatures.get(label);
    if (!input || !Array.isArray(input[0])) {
      results.push({ label, verified: false, bytesVerify: false, problem: 'signature', reason: `Signature-Input has no inner list for label ${label}` });
    } else if (!signature || !(signature[0] instanceof ArrayBuffer)) {
      results.push({ label, verified: false, bytesVerify: false, problem: 'signature', reason: `Signature has no byte sequence for label ${label}` });
    } else {
      results.push(await verifyLabel(message, label, input as InnerList, signature[0], keys, policy));
    }
  }
  const good = results.find((r) => r.verified);
  const details = { labels: results };
  if (good && base64url) {
    const warning = 'Signature writes its byte sequence in base64url, where RFC 8941 (3.3.5) byte sequences are base64; it verifies once read as base64url';
    return { verified: true, warning, reason: `${good.reason} (read as base64url)`, details: { ...details, encoding: 'base64url' } };
  }
  if (good) return { verified: true, reason: good.reason, details };
  // A label whose bytes verify says most about what is wrong (coverage or timing, not the key).
  const closest = results.find((r) => r.bytesVerify) ?? results[0]!;
  return { verified: false, problem: closest.problem ?? 'signature', reason: results.map((r) => r.reason).join('; '), details };
}
