import type { Fault } from './types.ts';

export const webhooksFaults: Fault[] = [];
