import type { Variant } from './types.ts';

export const authVariants: Variant[] = [];
