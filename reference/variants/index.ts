// The catalogue of legitimate variants of the reference: one list per area.
import type { Variant } from './types.ts';

export type { Variant } from './types.ts';

// Each area's list lives in its own file; an empty list until the area has variants.
import { authVariants } from './auth.ts';
import { usersVariants } from './users.ts';
import { cryptoTransfersVariants } from './crypto-transfers.ts';
import { tradingVariants } from './trading.ts';
import { webhooksVariants } from './webhooks.ts';
import { loadVariants } from './load.ts';
import { commonVariants } from './common.ts';
import { serverErrorVariants } from './server-errors.ts';

export const VARIANTS: readonly Variant[] = [
  ...commonVariants,
  ...serverErrorVariants,
  ...authVariants,
  ...usersVariants,
  ...cryptoTransfersVariants,
  ...tradingVariants,
  ...webhooksVariants,
  ...loadVariants,
];

export function variantByName(name: string): Variant | undefined {
  return VARIANTS.find((v) => v.name === name);
}

/** Either variant says it cannot be combined with the other. */
function conflict(a: string, b: string): boolean {
  return Boolean(variantByName(a)?.conflictsWith?.includes(b) || variantByName(b)?.conflictsWith?.includes(a));
}

/** The active variants; unknown names and conflicting pairs are usage errors. */
export class VariantSet {
  private readonly active: ReadonlySet<string>;

  constructor(names: Iterable<string> = []) {
    const list = [...names];
    const unknown = list.filter((n) => !variantByName(n));
    if (unknown.length) throw new Error(`unknown variant${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')} (see --list-variants)`);
    for (const name of list) {
      const clash = list.find((other) => other !== name && conflict(name, other));
      if (clash) throw new Error(`variants ${name} and ${clash} cannot be combined: they answer the same question differently`);
    }
    this.active = new Set(list);
  }

  has(name: string): boolean {
    // A misspelt name in the reference's own code would silently never apply.
    if (!variantByName(name)) throw new Error(`reference bug: variant ${name} is not in the catalogue`);
    return this.active.has(name);
  }

  get names(): string[] {
    return [...this.active];
  }
}

/** The largest set of variants that can be active together: each in catalogue order unless it conflicts with one already taken. */
export function compatibleVariants(candidates: readonly Variant[] = VARIANTS): string[] {
  const taken: string[] = [];
  for (const variant of candidates) {
    if (!taken.some((other) => conflict(variant.name, other))) taken.push(variant.name);
  }
  return taken;
}
