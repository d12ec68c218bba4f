import type { Fault } from './types.ts';

export const tradingFaults: Fault[] = [];
