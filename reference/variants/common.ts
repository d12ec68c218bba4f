import type { Variant } from './types.ts';

export const commonVariants: Variant[] = [];
