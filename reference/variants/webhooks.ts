import type { Variant } from './types.ts';

export const webhooksVariants: Variant[] = [];
