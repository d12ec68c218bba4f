import { createHash } from 'node:crypto';
import type { Profile } from '../../src/config/profile.ts';
import { stringPlaces } from '../../src/config/secret-places.ts';

/** What stands for every secret in the hash: the same in every run, so two parts of one run (ptas merge) agree whatever their markers. */
const SECRET = '«secret»';

/**
 * A stable fingerprint of the profile: which profile a run used, never what
 * its secrets are. Every value at a place that holds a secret
 * (src/config/secret-places.ts), and the client secret wherever else it
 * appears, is one fixed placeholder first: a hash over the secrets
 * themselves would let a weak one be found by guessing against it.
 */
export function profileHash(profile: Profile): string {
  const clientSecret = profile.credentials?.clientSecret;
  const secrets = new Set(stringPlaces(profile).filter((place) => place.secret).map((place) => place.value));
  const canonical = JSON.stringify(profile, (_key, value: unknown) => {
    if (typeof value === 'string') return secrets.has(value) ? SECRET : clientSecret && clientSecret.length >= 8 ? value.replaceAll(clientSecret, SECRET) : value;
    return value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : value;
  });
  return 'sha256:' + createHash('sha256').update(canonical).digest('hex').slice(0, 12);
}
