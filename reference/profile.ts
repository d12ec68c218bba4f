// The reference's own implementation profile: what a certification team
// would write for it. `ptas run` uses it when no --base-url is given. Each
// area contributes its section from reference/profile-sections/.
import type { ResolvedProfile } from '../src/config/profile.ts';
import { REFERENCE_DEFAULTS, type ReferenceOptions } from './options.ts';
import { usersSection } from './profile-sections/users.ts';
import { cryptoTransfersSection } from './profile-sections/crypto-transfers.ts';
import { tradingSection } from './profile-sections/trading.ts';
import { webhooksSection } from './profile-sections/webhooks.ts';
import { loadSection } from './profile-sections/load.ts';
import { variantByName } from './variants/index.ts';
import { conditionByName } from './conditions/index.ts';

export function referenceProfile(baseUrl: string, overrides: Partial<ReferenceOptions> = {}): ResolvedProfile {
  const options: ReferenceOptions = { ...REFERENCE_DEFAULTS, ...overrides };
  const profile: ResolvedProfile = {
    name: 'PTAS reference implementation',
    baseUrl,
    credentials: { clientId: options.clientId, clientSecret: options.clientSecret },
    // The own-licence client is registered too, so it is the second client the refresh-binding check presents.
    auth: { jwksUrl: '/.well-known/jwks.json', expiresInUnit: 'seconds', otherClientId: options.ownLicenceClientId },
    users: usersSection(baseUrl, options),
    cryptoTransfers: cryptoTransfersSection(baseUrl, options),
    trading: tradingSection(baseUrl, options),
    webhooks: webhooksSection(baseUrl, options),
    load: loadSection(baseUrl, options),
  };
  // Sections an area does not fill are left out rather than written as undefined.
  const plain = JSON.parse(JSON.stringify(profile)) as ResolvedProfile;
  // A variant may change what a certification team would write (e.g. a limit no longer documented).
  const varied = options.variants.map(variantByName).reduce((p, variant) => variant?.adjustProfile?.(p, options) ?? p, plain);
  // A condition after them: the waits it declares apply to the profile the variants made (e.g. a retry schedule only where one is declared).
  return options.conditions.map(conditionByName).reduce((p, condition) => condition?.adjustProfile?.(p, options) ?? p, varied);
}
