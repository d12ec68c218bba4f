import type { Variant } from './types.ts';

export const cryptoTransfersVariants: Variant[] = [];
