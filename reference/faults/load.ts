import type { Fault } from './types.ts';

export const loadFaults: Fault[] = [
  { name: 'no-token-rate-limit', requirement: 'TOKEN-RATE-LIMIT-429', description: 'The token endpoint has no rate limit: it never answers 429.' },
  { name: 'no-token-body-limit', requirement: 'TOKEN-SIZE-LIMIT-413', description: 'The token endpoint reads bodies of any size and never answers 413.' },
];
