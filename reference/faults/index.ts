// The fault catalogue of the reference implementation: one list per area.
import { authFaults } from './auth.ts';
import { usersFaults } from './users.ts';
import { cryptoTransfersFaults } from './crypto-transfers.ts';
import { tradingFaults } from './trading.ts';
import { webhooksFaults } from './webhooks.ts';
import { loadFaults } from './load.ts';
import { commonFaults } from './common.ts';
import type { Fault } from './types.ts';

export type { Fault } from './types.ts';

export const FAULTS: readonly Fault[] = [
  ...authFaults,
  ...usersFaults,
  ...cryptoTransfersFaults,
  ...tradingFaults,
  ...webhooksFaults,
  ...loadFaults,
  ...commonFaults,
];

export function faultByName(name: string): Fault | undefined {
  return FAULTS.find((f) => f.name === name);
}

/** The set of active faults; unknown names are a usage error listing the valid ones. */
export class FaultSet {
  private readonly active: ReadonlySet<string>;

  constructor(names: Iterable<string> = []) {
    const list = [...names];
    const unknown = list.filter((n) => !faultByName(n));
    if (unknown.length) {
      throw new Error(`unknown fault${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')} (see --list-faults)`);
    }
    this.active = new Set(list);
  }

  has(name: string): boolean {
    // A misspelt name in the reference's own code would silently never fire.
    if (!faultByName(name)) throw new Error(`reference bug: fault ${name} is not in the catalogue`);
    return this.active.has(name);
  }

  get names(): string[] {
    return [...this.active];
  }
}
