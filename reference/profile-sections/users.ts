// The "users" section of the reference's own implementation profile. The
// expected terms are written out by hand from the documented fixture
// (reference/fixtures/users.ts: TERMS, FLOWS, DEFAULT_JOURNEYS) rather than
// computed by the route's own code, so a resolution bug cannot agree with itself.
import type { TermsCase, UsersProfile } from '../../src/config/sections/users.ts';
import { seedUsers } from '../fixtures/users.ts';
import type { ReferenceOptions } from '../options.ts';

/** For seeded user 0, who has accepted none of the terms 101-601. */
const TERMS_CASES: TermsCase[] = [
  { query: { 'user_journey[]': 'onboarding' }, expectedTerms: [101, 102] },
  { query: { 'user_journey[]': ['trading', 'crypto'] }, expectedTerms: [201, 301] },
  { query: { 'user_journey[]': ['staking', 'savings', 'crypto_transfer'] }, expectedTerms: [102, 401, 501, 601] },
  { query: { user_flow: 'onboard' }, expectedTerms: [101, 102] },
  { query: { user_flow: 'trade_buy', asset_group: 'crypto' }, expectedTerms: [201, 301] },
  { query: { user_flow: 'trade_sell', asset_group: 'metals' }, expectedTerms: [201, 302] },
  { query: { user_flow: 'trade_swap', source_asset_group: 'crypto', target_asset_group: 'securities' }, expectedTerms: [201, 301, 303] },
  { query: { user_flow: 'saving_create', asset_group: 'securities' }, expectedTerms: [303, 401] },
  { query: { user_flow: 'stake' }, expectedTerms: [301, 501] },
  { query: { user_flow: 'unstake' }, expectedTerms: [301, 501] },
  { query: { user_flow: 'crypto_transfer' }, expectedTerms: [102, 301, 601] },
];

export function usersSection(_baseUrl: string, options: ReferenceOptions): UsersProfile {
  return {
    existingUserId: seedUsers(options.seed)[0]!.id,
    journeys: ['trading', 'crypto'],
    assetGroup: 'crypto',
    sourceAssetGroup: 'crypto',
    targetAssetGroup: 'metals',
    languages: ['en', 'de', 'fr'],
    // The default journeys are onboarding and trading.
    defaultTerms: [101, 102, 201],
    termsCases: TERMS_CASES,
    ownLicence: { clientId: options.ownLicenceClientId, clientSecret: options.clientSecret, restrictedStatus: 403 },
  };
}
