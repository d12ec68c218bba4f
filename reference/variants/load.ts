import type { Variant } from './types.ts';

export const loadVariants: Variant[] = [];
