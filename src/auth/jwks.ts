// Verifies tokens against the JWK Set named in the profile (auth.jwksUrl or
// auth.jwksFile). The spec says a JWKS operation exists but not where.
import { readFileSync } from 'node:fs';
import { createLocalJWKSet, decodeJwt, jwtVerify, type JSONWebKeySet } from 'jose';
import type { HttpClient } from '../http/client.ts';
import type { Bearer } from '../http/outgoing.ts';
import type { JwksAccess, ResolvedProfile } from '../config/profile.ts';
import { PtasError } from '../errors.ts';

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

/** How to fetch a key set on the target: the profile's auth.jwksAccess, and the partner's bearer token when that needs it. */
export interface JwksFetch {
  access?: JwksAccess;
  /** The suite's own token (or a token) for a key set behind the bearer: sent as the request goes (src/http/outgoing.ts). */
  bearer?: Bearer;
}

/**
 * Loads the key set through the recording client, so its fetch is evidence
 * too. How the JWKS operation is called is not shown (the deployed API's
 * wants the bearer token, REAL-API-NOTES), so auth.jwksAccess says: "none",
 * "bearer" or one header. Unset, a 401 on the target's own origin is retried
 * once with the bearer token, so profiles written before the setting work.
 * Credentials only ever go to the target's own origin.
 */
export async function loadJwks(source: JwksSource, http: HttpClient, fetch: JwksFetch = {}): Promise<JSONWebKeySet> {
  if (source.kind === 'file') return JSON.parse(readFileSync(source.file, 'utf8')) as JSONWebKeySet;
  const { access, bearer } = fetch;
  const sameOrigin = onTarget(source.url, http.baseUrl);
  let res;
  if (access === 'bearer' && sameOrigin && bearer) {
    res = await http.get(source.url, { bearer, label: 'fetch the JSON Web Key Set with the bearer token (auth.jwksAccess)' });
  } else if (typeof access === 'object' && sameOrigin) {
    http.redactor.addSecret(access.value, 'jwks_access');
    res = await http.get(source.url, { headers: { [access.header]: access.value }, label: `fetch the JSON Web Key Set with ${access.header} (auth.jwksAccess)` });
  } else {
    res = await http.get(source.url, { label: 'fetch the JSON Web Key Set' });
    if (res.status === 401 && access === undefined && bearer && sameOrigin) {
      res = await http.get(source.url, { bearer, label: 'fetch the JSON Web Key Set with the bearer token' });
    }
  }
  const keys = (res.json as { keys?: unknown } | undefined)?.keys;
  if (res.status !== 200 || !Array.isArray(keys)) {
    const hint = res.status === 401 || res.status === 403 ? ` (set auth.jwksAccess to how the key set is fetched: "bearer" or {"header": …, "value": …})` : '';
    throw new JwksUnavailable(`JWK Set at ${source.url} answered ${res.status}${Array.isArray(keys) || res.status !== 200 ? '' : ' without a "keys" array'}${hint}`);
  }
  return res.json as JSONWebKeySet;
}

/** The key set could not be fetched as the profile says: a set-up failure, never the implementation's FAIL. */
export class JwksUnavailable extends PtasError {
  readonly code = 'jwks-unavailable';
  override name = 'JwksUnavailable';
}

/**
 * undefined when the token verifies, else why not. Verified as of the time
 * it was issued (its iat, when it has one): whether it verifies is asked,
 * not whether it is still live, and a short-lived token a slow answer
 * delivered late may have run out by the time it is read.
 */
export async function verifyWithJwks(token: string, jwks: JSONWebKeySet): Promise<string | undefined> {
  try {
    await jwtVerify(token, createLocalJWKSet(jwks), { currentDate: issuedAt(token) });
    return undefined;
  } catch (error) {
    const e = error as { code?: string; message?: string };
    return `${e.code ?? 'ERR'}: ${e.message ?? String(error)}`;
  }
}

/** The token's iat as a date; undefined (read now) when it has none or is no JWT, which jwtVerify then says itself. */
function issuedAt(token: string): Date | undefined {
  try {
    const { iat } = decodeJwt(token);
    return typeof iat === 'number' && Number.isFinite(iat) ? new Date(iat * 1000) : undefined;
  } catch {
    return undefined;
  }
}
