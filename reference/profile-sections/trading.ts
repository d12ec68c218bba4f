// The "trading" section of the reference's own implementation profile.
import type { TradingProfile } from '../../src/config/sections/trading.ts';
import type { ReferenceOptions } from '../options.ts';

export function tradingSection(_baseUrl: string, _options: ReferenceOptions): TradingProfile | undefined {
  return undefined;
}
