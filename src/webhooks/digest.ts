// Content-Digest (RFC 9530): a structured-field dictionary from algorithm to
// the digest of the content as a byte sequence, e.g. sha-256=:base64:.
// A delivery must carry at least one accepted algorithm, and every accepted
// algorithm it carries must match the body bytes exactly as received.
import { createHash } from 'node:crypto';
import { parseDictionary, serializeDictionary, type Dictionary } from 'structured-headers';
import type { DigestAlgorithmName } from '../config/sections/webhooks.ts';

const NODE_HASH: Record<DigestAlgorithmName, string> = { 'sha-256': 'sha256', 'sha-512': 'sha512' };

export function digestOf(algorithm: DigestAlgorithmName, body: Uint8Array): Buffer {
  return createHash(NODE_HASH[algorithm]).update(body).digest();
}

/** The Content-Digest field value for a body. */
export function contentDigest(body: Uint8Array, algorithms: readonly DigestAlgorithmName[] = ['sha-256']): string {
  return serializeDictionary(new Map(algorithms.map((a) => [a, [digestOf(a, body), new Map()]])));
}

export interface DigestComparison {
  algorithm: DigestAlgorithmName;
  matches: boolean;
  received: string;
  expected: string;
}

export interface DigestVerdict {
  ok: boolean;
  /** Why not, one line (set when !ok). */
  reason?: string;
  compared: DigestComparison[];
  /** Algorithms present but not accepted by the profile (insecure or unknown ones included). */
  ignored: string[];
}

export function verifyContentDigest(value: string | undefined, body: Uint8Array, accepted: readonly DigestAlgorithmName[]): DigestVerdict {
  if (value === undefined) return { ok: false, reason: 'no Content-Digest header', compared: [], ignored: [] };
  let members: Dictionary;
  try {
    members = parseDictionary(value);
  } catch (error) {
    return { ok: false, reason: `Content-Digest is not a structured-field dictionary (RFC 8941): ${(error as Error).message}`, compared: [], ignored: [] };
  }
  const compared: DigestComparison[] = [];
  const ignored: string[] = [];
  for (const [name, member] of members) {
    if (!(accepted as readonly string[]).includes(name)) {
      ignored.push(name);
      continue;
    }
    const bare = Array.isArray(member[0]) ? undefined : member[0];
    if (!(bare instanceof ArrayBuffer)) {
      return { ok: false, reason: `Content-Digest member ${name} is not a byte sequence (expected ${name}=:base64:)`, compared, ignored };
    }
    const algorithm = name as DigestAlgorithmName;
    const expected = digestOf(algorithm, body);
    const received = Buffer.from(bare);
    compared.push({ algorithm, matches: expected.equals(received), received: received.toString('base64'), expected: expected.toString('base64') });
  }
  if (compared.length === 0) {
    const carried = ignored.length ? ignored.join(', ') : 'nothing';
    return { ok: false, reason: `Content-Digest carries ${carried}, none of the accepted ${accepted.join(', ')}`, compared, ignored };
  }
  const wrong = compared.find((c) => !c.matches);
  if (wrong) {
    return {
      ok: false,
      reason: `Content-Digest ${wrong.algorithm} does not match the ${body.length}-byte body: received ${wrong.received}, body hashes to ${wrong.expected}`,
      compared,
      ignored,
    };
  }
  return { ok: true, compared, ignored };
}
