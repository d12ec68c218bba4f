// Faults that break a requirement of the whole interface rather than of one
// operation: switched on in reference/response-variants.ts, where every
// route's answers are shaped.
import type { Fault } from './types.ts';

export const commonFaults: Fault[] = [
  {
    name: 'error-bodies-text-plain',
    requirement: 'ERROR-BODIES-JSON',
    description: 'The 4xx answers of the token endpoint and of user details v2 are plain text ("parameter_error: …") labelled Content-Type: text/plain; every other answer stays JSON.',
  },
];
