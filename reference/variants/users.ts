import type { Variant } from './types.ts';

export const usersVariants: Variant[] = [];
