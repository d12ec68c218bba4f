// The "cryptoTransfers" section of the reference's own implementation profile.
import type { CryptoTransfersProfile } from '../../src/config/sections/crypto-transfers.ts';
import type { ReferenceOptions } from '../options.ts';

export function cryptoTransfersSection(_baseUrl: string, _options: ReferenceOptions): CryptoTransfersProfile | undefined {
  return undefined;
}
