import type { Fault } from './types.ts';

export const cryptoTransfersFaults: Fault[] = [];
