// Structural JWT helpers for checks: decode without trusting, and forge
// tampered variants to prove an implementation verifies signatures.
import { base64url } from 'jose';

export interface DecodedJwt {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
  signature: string;
}

/** Decodes a JWS compact serialization; returns a reason string when it is not one. */
export function decodeJwt(token: string): DecodedJwt | string {
  const parts = token.split('.');
  if (parts.length !== 3) return `has ${parts.length} dot-separated segment(s), a JWT has 3`;
  const decodePart = (part: string, name: string): Record<string, unknown> | string => {
    try {
      const value: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(base64url.decode(part)));
      return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : `${name} is not a JSON object`;
    } catch {
      return `${name} is not base64url-encoded JSON`;
    }
  };
  const header = decodePart(parts[0]!, 'header');
  if (typeof header === 'string') return header;
  const payload = decodePart(parts[1]!, 'payload');
  if (typeof payload === 'string') return payload;
  if (typeof header.alg !== 'string') return 'header has no "alg"';
  return { header, payload, signature: parts[2]! };
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
