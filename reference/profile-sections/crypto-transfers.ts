// The "cryptoTransfers" section of the reference's own implementation profile.
import type { CryptoTransfersProfile } from '../../src/config/sections/crypto-transfers.ts';
import { seedDirectory } from '../crypto-transfers/directory.ts';
import { seedUsers } from '../fixtures/users.ts';
import type { ReferenceOptions } from '../options.ts';

export function cryptoTransfersSection(_baseUrl: string, options: ReferenceOptions): CryptoTransfersProfile {
  const directory = seedDirectory(options.seed);
  const [xrp] = directory.coinNetworks.values();
  const [vasp] = directory.vasps.values();
  return {
    userId: seedUsers(options.seed)[0]!.id,
    // Every field set, with values that differ from any default, so each echo is meaningful.
    // One exchange address, a fresh destination tag per request (an XRP tag is a
    // 32-bit number): every check registers a beneficiary of its own, as an
    // implementation that refuses duplicate addresses needs.
    // host_name is the short name a user would type: the directory-host-name
    // variant answers the directory's registered name instead.
    // owner_legal_name is mixed case: the owner-name-normalised variant visibly changes it.
    withdrawalAddress: {
      coin_network_id: xrp!.id,
      address: 'rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh',
      destination_tag: '{uniqueDigits}',
      host_type: 'KNOWN_VASP',
      host_name: vasp!.shortName,
      host_id: vasp!.id,
      user_owned: false,
      owner_legal_name: 'Erika Mustermann',
    },
  };
}
