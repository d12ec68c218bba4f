// Structural JWT helpers for checks: decode without trusting, and forge
// tampered variants to prove an implementation verifies signatures.
import { base64url } from 'jose';

export interface DecodedJwt {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
  signature: string;
}

/** A JWT in either form RFC 7519 section 1 allows: signed (its claims readable) or encrypted (only its header). */
export type JwtForm = { form: 'JWS'; decoded: DecodedJwt } | { form: 'JWE'; header: Record<string, unknown> };

/** One base64url segment holding a JSON object; a reason string when it does not. */
function decodePart(part: string, name: string): Record<string, unknown> | string {
  try {
    const value: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(base64url.decode(part)));
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : `${name} is not a JSON object`;
  } catch {
    return `${name} is not base64url-encoded JSON`;
  }
}

/** Decodes a JWS compact serialization; returns a reason string when it is not one. */
export function decodeJwt(token: string): DecodedJwt | string {
  const parts = token.split('.');
  if (parts.length !== 3) return `has ${parts.length} dot-separated segment(s), a JWT has 3`;
  const header = decodePart(parts[0]!, 'header');
  if (typeof header === 'string') return header;
  const payload = decodePart(parts[1]!, 'payload');
  if (typeof payload === 'string') return payload;
  if (typeof header.alg !== 'string') return 'header has no "alg"';
  return { header, payload, signature: parts[2]! };
}

/**
 * Reads a token as a JWT: "JWTs are always represented using the JWS Compact
 * Serialization or the JWE Compact Serialization" (RFC 7519 section 1), i.e.
 * three segments (header, claims, signature) or five (an encrypted JWT, whose
 * protected header names "alg" and "enc"). A reason string when it is neither.
 */
export function readJwt(token: string): JwtForm | string {
  const parts = token.split('.');
  if (parts.length === 5) {
    const header = decodePart(parts[0]!, 'JWE protected header');
    if (typeof header === 'string') return header;
    if (typeof header.alg !== 'string' || typeof header.enc !== 'string') return 'has five segments, but its protected header names no "alg" and "enc" of a JWE';
    return { form: 'JWE', header };
  }
  if (parts.length !== 3) return `has ${parts.length} dot-separated segment(s); a JWS Compact Serialization has 3, a JWE one 5`;
  const decoded = decodeJwt(token);
  return typeof decoded === 'string' ? decoded : { form: 'JWS', decoded };
}

/** The same token with a changed payload and the original signature: must not verify. */
export function tamperPayload(token: string): string {
  const parts = token.split('.');
  if (parts.length !== 3) return `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
  const decoded = decodeJwt(token);
  const payload = typeof decoded === 'string' ? {} : decoded.payload;
  const forged = { ...payload, sub: `${String(payload.sub ?? '')}-forged`, exp: Math.floor(Date.now() / 1000) + 86_400 };
  return [parts[0], base64url.encode(JSON.stringify(forged)), parts[2]].join('.');
}

/** The token with its signature removed. */
export function stripSignature(token: string): string {
  const parts = token.split('.');
  return parts.length === 3 ? `${parts[0]}.${parts[1]}.` : `${token}.`;
}
