import type { Variant } from './types.ts';

export const tradingVariants: Variant[] = [];
