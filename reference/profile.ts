// The reference's own implementation profile: what a certification team
// would write for it. `ptas run` uses it when no --base-url is given.
import type { ResolvedProfile } from '../src/config/profile.ts';
import { seedUsers } from './fixtures/users.ts';
import { REFERENCE_DEFAULTS, type ReferenceOptions } from './options.ts';

export function referenceProfile(baseUrl: string, overrides: Partial<ReferenceOptions> = {}): ResolvedProfile {
  const options = { ...REFERENCE_DEFAULTS, ...overrides };
  const users = seedUsers(options.seed);
  return {
    name: 'PTAS reference implementation',
    baseUrl,
    credentials: { clientId: options.clientId, clientSecret: options.clientSecret },
    auth: { jwksUrl: '/.well-known/jwks.json', expiresInUnit: 'seconds' },
    users: { existingUserId: users[0]!.id },
  };
}
