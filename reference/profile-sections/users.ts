// The "users" section of the reference's own implementation profile.
import type { UsersProfile } from '../../src/config/sections/users.ts';
import { seedUsers } from '../fixtures/users.ts';
import type { ReferenceOptions } from '../options.ts';

export function usersSection(_baseUrl: string, options: ReferenceOptions): UsersProfile {
  return { existingUserId: seedUsers(options.seed)[0]!.id };
}
