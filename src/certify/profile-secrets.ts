// The profile as manifest.json shows it: every secret replaced by a salted
// SHA-256, so the manifest names which profile was used without disclosing
// it, and a certifier who holds a secret can still confirm it (hash the salt
// and the value). A value is a secret when it is one the caller names (the
// client secret) or when its key says so (secret, password, passphrase,
// token, apiKey, privateKey).
import { sha256Hex } from './manifest.ts';

const SECRET_KEY = /secret|password|passphrase|token$|apikey|privatekey/i;

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
  const walk = (value: unknown, keyPath: string, key: string): unknown => {
    if (typeof value === 'string') {
      if (!secrets.has(value) && !SECRET_KEY.test(key)) return value;
      hashedSecrets.push(keyPath);
      return saltedHash(salt, value);
    }
    if (Array.isArray(value)) return value.map((item, i) => walk(item, `${keyPath}[${i}]`, key));
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, keyPath ? `${keyPath}.${k}` : k, k)]));
    }
    return value;
  };
  return { content: walk(profile, '', ''), hashedSecrets };
}
