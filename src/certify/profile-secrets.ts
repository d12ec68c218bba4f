// The profile as manifest.json shows it: every secret replaced by a
// fingerprint, so the manifest names which profile was used without
// disclosing it, and a certifier who holds a secret can still confirm it.
// The profile here is resolved (env: references replaced by their values),
// so a value is taken for a secret generously: one the caller names (the
// client secret), and one at a place that holds a secret by the rule of
// src/config/secret-places.ts (a key or header name that says so, the value
// of a {header, value} pair).
//
// A bundle is forwarded to people who were not there, and secrets are not
// always strong: a fingerprint that costs one SHA-256 per guess gave a
// six-digit secret away in under a second. So a fingerprint is scrypt, a
// memory-hard KDF built into Node, with its parameters and salt in the value:
//   scrypt:N=32768,r=8,p=1:<salt, hex>:<32 bytes, hex>
// Each guess then costs 32 MiB and about 0.16 s on the 2-core machine that
// made this (a handful of guesses a second per core instead of millions).
// The salt is fresh for every manifest; the same secret under two keys gets
// the same fingerprint, computed once. Computing them is async (on libuv's
// thread pool), so `ptas serve`, which writes its runs' manifests in its own
// process, keeps answering while they are made.
import { scrypt, scryptSync, timingSafeEqual } from 'node:crypto';
import { nameOfPlace, SECRET_NAME } from '../config/secret-places.ts';

/** The KDF's cost. Raising N or r later keeps old fingerprints checkable: each names its own. */
export const SECRET_KDF = { N: 2 ** 15, r: 8, p: 1, keyLength: 32 } as const;

/**
 * A profile with more distinct secrets than this gets fingerprints for the
 * first ones only; the rest are left out (SECRET_LEFT_OUT), so a profile of
 * thousands of secret-named keys cannot keep a run's end busy for minutes.
 */
export const MAX_FINGERPRINTED_SECRETS = 16;
export const SECRET_LEFT_OUT = `secret (left out: the profile has more than ${MAX_FINGERPRINTED_SECRETS} distinct secrets)`;

/** scrypt wants its memory limit raised above 128 · N · r bytes (32 MiB at the defaults). */
const maxmemFor = (N: number, r: number) => 2 * 128 * N * r;

interface KdfParameters {
  N: number;
  r: number;
  p: number;
}

const FINGERPRINT = /^scrypt:N=(\d+),r=(\d+),p=(\d+):([0-9a-f]+):([0-9a-f]+)$/;

const format = ({ N, r, p }: KdfParameters, salt: string, derived: Buffer) => `scrypt:N=${N},r=${r},p=${p}:${salt}:${derived.toString('hex')}`;

/** The fingerprint of a secret under a salt (hex), synchronously: for one value (a test, a certifier's check). */
export function secretFingerprint(salt: string, value: string, kdf: KdfParameters & { keyLength?: number } = SECRET_KDF): string {
  const derived = scryptSync(value, salt, kdf.keyLength ?? SECRET_KDF.keyLength, { N: kdf.N, r: kdf.r, p: kdf.p, maxmem: maxmemFor(kdf.N, kdf.r) });
  return format(kdf, salt, derived);
}

function secretFingerprintAsync(salt: string, value: string, kdf: KdfParameters & { keyLength: number } = SECRET_KDF): Promise<string> {
  return new Promise((resolve, reject) =>
    scrypt(value, salt, kdf.keyLength, { N: kdf.N, r: kdf.r, p: kdf.p, maxmem: maxmemFor(kdf.N, kdf.r) }, (error, derived) => (error ? reject(error) : resolve(format(kdf, salt, derived)))),
  );
}

/** Whether `value` is the secret a fingerprint was made from (its own parameters and salt); false for anything that is not a fingerprint. */
export function fingerprintMatches(fingerprint: string, value: string): boolean {
  const parts = FINGERPRINT.exec(fingerprint);
  if (!parts) return false;
  const [, N, r, p, salt, hex] = parts;
  const expected = Buffer.from(hex!, 'hex');
  const derived = scryptSync(value, salt!, expected.length, { N: Number(N), r: Number(r), p: Number(p), maxmem: maxmemFor(Number(N), Number(r)) });
  return timingSafeEqual(derived, expected);
}

export interface HashedProfile {
  content: unknown;
  /** The key paths whose values were replaced ("credentials.clientSecret", "a.b[0]"). */
  hashedSecrets: string[];
}

/** The profile with every secret replaced by `replace(value)`, and where they were. */
function replaceSecrets(profile: unknown, knownSecrets: readonly string[], replace: (value: string) => string): HashedProfile {
  const hashedSecrets: string[] = [];
  const secrets = new Set(knownSecrets.filter(Boolean));
  // A secret inside a longer value (a URL, a header line) counts too; a very short one only whole, or everything would match.
  const containsSecret = (value: string) => [...secrets].some((secret) => value === secret || (secret.length >= 8 && value.includes(secret)));
  const walk = (value: unknown, keyPath: string, key: string): unknown => {
    if (typeof value === 'string') {
      if (!containsSecret(value) && !SECRET_NAME.test(key)) return value;
      hashedSecrets.push(keyPath);
      return replace(value);
    }
    if (Array.isArray(value)) return value.map((item, i) => walk(item, `${keyPath}[${i}]`, key));
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, keyPath ? `${keyPath}.${k}` : k, nameOfPlace(value, k))]));
    }
    return value;
  };
  return { content: walk(profile, '', ''), hashedSecrets };
}

/** The profile as the manifest shows it: each secret's scrypt fingerprint under `salt` (hex), each distinct secret computed once. */
export async function profileWithHashedSecrets(profile: unknown, knownSecrets: readonly string[], salt: string): Promise<HashedProfile> {
  const values: string[] = [];
  replaceSecrets(profile, knownSecrets, (value) => {
    if (!values.includes(value)) values.push(value);
    return '';
  });
  const fingerprinted = values.slice(0, MAX_FINGERPRINTED_SECRETS);
  const fingerprints = new Map(await Promise.all(fingerprinted.map(async (value) => [value, await secretFingerprintAsync(salt, value)] as const)));
  return replaceSecrets(profile, knownSecrets, (value) => fingerprints.get(value) ?? SECRET_LEFT_OUT);
}
