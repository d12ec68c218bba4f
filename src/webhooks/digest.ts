// Content-Digest (RFC 9530): a structured-field dictionary from algorithm to
// the digest of the content as a byte sequence, e.g. sha-256=:base64:.
// How the service computes it is not shown (spec 5), so the verifier takes
// the algorithms to accept from the profile when it declares them, and
// otherwise every algorithm of the RFC 9530 registry it can compute.
import { createHash } from 'node:crypto';
import { parseDictionary, serializeDictionary, type Dictionary } from 'structured-headers';
import type { DigestAlgorithmName } from '../config/sections/webhooks.ts';

/** The RFC 9530 registry (section 7.2): Node's hash name where the suite can compute it, and whether the RFC deprecates it. */
const REGISTRY: Record<string, { node?: string; deprecated: boolean }> = {
  'sha-512': { node: 'sha512', deprecated: false },
  'sha-256': { node: 'sha256', deprecated: false },
  md5: { node: 'md5', deprecated: true },
  sha: { node: 'sha1', deprecated: true },
  unixsum: { deprecated: true },
  unixcksum: { deprecated: true },
  adler: { deprecated: true },
  crc32c: { deprecated: true },
};

/** Algorithms of the registry the suite can verify, the active ones first. */
export const VERIFIABLE_DIGEST_ALGORITHMS = Object.keys(REGISTRY).filter((name) => REGISTRY[name]!.node);

export function isDeprecatedDigestAlgorithm(name: string): boolean {
  return REGISTRY[name]?.deprecated === true;
}

export function digestOf(algorithm: string, body: Uint8Array): Buffer {
  const node = REGISTRY[algorithm]?.node;
  if (!node) throw new Error(`the suite cannot compute a ${algorithm} digest`);
  return createHash(node).update(body).digest();
}

/** The Content-Digest field value for a body. */
export function contentDigest(body: Uint8Array, algorithms: readonly DigestAlgorithmName[] = ['sha-256']): string {
  // A Uint8Array of its own ArrayBuffer: what structured-headers types a byte sequence as under the DOM library
  // too (the console's type check reaches this module; a Buffer may sit on a SharedArrayBuffer there).
  return serializeDictionary(new Map(algorithms.map((a) => [a, [new Uint8Array(digestOf(a, body)), new Map()]])));
}

export interface DigestComparison {
  algorithm: string;
  matches: boolean;
  received: string;
  expected: string;
}

export interface DigestVerdict {
  ok: boolean;
  /**
   * missing: no header; malformed: not an RFC 9530 dictionary of byte
   * sequences; unaccepted: no member with an accepted algorithm; mismatch: an
   * accepted member does not match the body; match: every accepted member matches.
   */
  kind: 'missing' | 'malformed' | 'unaccepted' | 'mismatch' | 'match';
  /** Why not, one line (set when !ok). */
  reason?: string;
  compared: DigestComparison[];
  /** Algorithms present but not compared (not accepted, or not computable by the suite). */
  ignored: string[];
}

/**
 * Checks a Content-Digest against the body bytes as received. A digest must
 * carry at least one accepted algorithm, and every accepted one it carries
 * must match. `accepted` undefined: every algorithm the suite can compute.
 */
export function verifyContentDigest(value: string | undefined, body: Uint8Array, accepted: readonly string[] = VERIFIABLE_DIGEST_ALGORITHMS): DigestVerdict {
  if (value === undefined) return { ok: false, kind: 'missing', reason: 'no Content-Digest header', compared: [], ignored: [] };
  let members: Dictionary;
  try {
    members = parseDictionary(value);
  } catch (error) {
    return { ok: false, kind: 'malformed', reason: `Content-Digest is not a structured-field dictionary (RFC 8941): ${(error as Error).message}`, compared: [], ignored: [] };
  }
  const compared: DigestComparison[] = [];
  const ignored: string[] = [];
  for (const [name, member] of members) {
    if (!accepted.includes(name) || !REGISTRY[name]?.node) {
      ignored.push(name);
      continue;
    }
    const bare = Array.isArray(member[0]) ? undefined : member[0];
    if (!(bare instanceof ArrayBuffer)) {
      return { ok: false, kind: 'malformed', reason: `Content-Digest member ${name} is not a byte sequence (expected ${name}=:base64:)`, compared, ignored };
    }
    const expected = digestOf(name, body);
    const received = Buffer.from(bare);
    compared.push({ algorithm: name, matches: expected.equals(received), received: received.toString('base64'), expected: expected.toString('base64') });
  }
  if (compared.length === 0) {
    const carried = ignored.length ? ignored.join(', ') : 'nothing';
    return { ok: false, kind: 'unaccepted', reason: `Content-Digest carries ${carried}, none of the accepted ${accepted.join(', ')}`, compared, ignored };
  }
  const wrong = compared.find((c) => !c.matches);
  if (wrong) {
    return {
      ok: false,
      kind: 'mismatch',
      reason: `Content-Digest ${wrong.algorithm} does not match the ${body.length}-byte body: received ${wrong.received}, body hashes to ${wrong.expected}`,
      compared,
      ignored,
    };
  }
  return { ok: true, kind: 'match', compared, ignored };
}
