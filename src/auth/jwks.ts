// Verifies tokens against the JWK Set named in the profile (auth.jwksUrl or
// auth.jwksFile). The spec says a JWKS operation exists but not where.
import { readFileSync } from 'node:fs';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import type { HttpClient } from '../http/client.ts';
import type { ResolvedProfile } from '../config/profile.ts';

export type JwksSource = { kind: 'url'; url: string } | { kind: 'file'; file: string };

export function jwksSource(profile: ResolvedProfile): JwksSource | undefined {
  if (profile.auth?.jwksFile) return { kind: 'file', file: profile.auth.jwksFile };
  if (profile.auth?.jwksUrl) return { kind: 'url', url: profile.auth.jwksUrl };
  return undefined;
}

/** A URL on the target itself: only there may the partner's bearer token be sent. */
function onTarget(url: string, baseUrl: string): boolean {
  if (!/^https?:\/\//.test(url)) return true;
  return new URL(url).origin === new URL(baseUrl).origin;
}

/**
 * Loads the key set through the recording client, so its fetch is evidence
 * too. Whether the JWKS operation wants a bearer token is not shown (the
 * deployed API's does, REAL-API-NOTES): a 401 on the target's own origin is
 * retried once with `bearer()`, when given.
 */
export async function loadJwks(source: JwksSource, http: HttpClient, bearer?: () => Promise<string>): Promise<JSONWebKeySet> {
  if (source.kind === 'file') return JSON.parse(readFileSync(source.file, 'utf8')) as JSONWebKeySet;
  let res = await http.get(source.url, { label: 'fetch the JSON Web Key Set' });
  if (res.status === 401 && bearer && onTarget(source.url, http.baseUrl)) {
    res = await http.get(source.url, { bearer: await bearer(), label: 'fetch the JSON Web Key Set with the bearer token' });
  }
  const keys = (res.json as { keys?: unknown } | undefined)?.keys;
  if (res.status !== 200 || !Array.isArray(keys)) {
    throw new Error(`JWK Set at ${source.url} answered ${res.status}${Array.isArray(keys) ? '' : ' without a "keys" array'}`);
  }
  return res.json as JSONWebKeySet;
}

/** undefined when the token verifies, else why not. */
export async function verifyWithJwks(token: string, jwks: JSONWebKeySet): Promise<string | undefined> {
  try {
    await jwtVerify(token, createLocalJWKSet(jwks));
    return undefined;
  } catch (error) {
    const e = error as { code?: string; message?: string };
    return `${e.code ?? 'ERR'}: ${e.message ?? String(error)}`;
  }
}
