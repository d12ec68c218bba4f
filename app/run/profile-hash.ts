import { createHash } from 'node:crypto';
import type { Profile } from '../../src/config/profile.ts';
import { Redactor } from '../../src/http/redact.ts';

/** A stable fingerprint of the profile, with secrets replaced by their markers. */
export function profileHash(profile: Profile): string {
  const redactor = new Redactor(profile.credentials?.clientSecret ? [[profile.credentials.clientSecret, 'client_secret']] : []);
  const canonical = JSON.stringify(redactor.redactJson(profile), (_key, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : value,
  );
  return 'sha256:' + createHash('sha256').update(canonical).digest('hex').slice(0, 12);
}
