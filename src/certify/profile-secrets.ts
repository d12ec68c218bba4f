// The profile as manifest.json shows it: every secret replaced by a salted
// SHA-256, so the manifest names which profile was used without disclosing
// it, and a certifier who holds a secret can still confirm it (hash the salt
// and the value). The profile here is resolved (env: references replaced by
// their values), so a value is taken for a secret generously: one the caller
// names (the client secret), and one at a place that holds a secret by the
// rule of src/config/secret-places.ts (a key or header name that says so, the
// value of a {header, value} pair).
import { nameOfPlace, SECRET_NAME } from '../config/secret-places.ts';
import { sha256Hex } from './manifest.ts';

export interface HashedProfile {
  content: unknown;
  hashedSecrets: string[];
}

export function saltedHash(salt: string, value: string): string {
  return `salted-sha256:${sha256Hex(salt + value)}`;
}

export function profileWithHashedSecrets(profile: unknown, knownSecrets: readonly string[], salt: string): HashedProfile {
  const hashedSecrets: string[] = [];
  const secrets = new Set(knownSecrets.filter(Boolean));
  // A secret inside a longer value (a URL, a header line) counts too; a very short one only whole, or everything would match.
  const containsSecret = (value: string) => [...secrets].some((secret) => value === secret || (secret.length >= 8 && value.includes(secret)));
  const walk = (value: unknown, keyPath: string, key: string): unknown => {
    if (typeof value === 'string') {
      if (!containsSecret(value) && !SECRET_NAME.test(key)) return value;
      hashedSecrets.push(keyPath);
      return saltedHash(salt, value);
    }
    if (Array.isArray(value)) return value.map((item, i) => walk(item, `${keyPath}[${i}]`, key));
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, keyPath ? `${keyPath}.${k}` : k, nameOfPlace(value, k))]));
    }
    return value;
  };
  return { content: walk(profile, '', ''), hashedSecrets };
}
