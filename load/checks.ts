// The checks the load stage reports, with their requirements: listed here so
// `ptas list` and the requirement-coverage test see them without running load.
import type { CheckMeta } from '../src/check/model.ts';

export const LOAD_CHECKS: CheckMeta[] = [
  {
    id: 'load.token-rate-limit',
    title: 'The token endpoint answers 429 above its rate limit',
    area: 'load',
    requirements: ['TOKEN-RATE-LIMIT-429'],
    severity: 'MUST',
  },
  {
    id: 'load.token-body-size-limit',
    title: 'The token endpoint answers 413 to bodies above its size limit',
    area: 'load',
    requirements: ['TOKEN-SIZE-LIMIT-413'],
    severity: 'MUST',
  },
];
