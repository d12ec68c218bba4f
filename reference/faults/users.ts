import type { Fault } from './types.ts';

export const usersFaults: Fault[] = [];
