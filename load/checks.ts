// The checks the load stage reports, registered with the other checks
// (src/check/registry.ts) so `ptas list` and the requirement-coverage test see
// them without running load. Their area is 'load' and their severity the
// level of their requirements.
import type { CheckMeta } from '../src/check/model.ts';
import { registerCheck, registeredChecks } from '../src/check/registry.ts';

export const TOKEN_RATE_LIMIT = registerCheck(
  {
    id: 'load.token-rate-limit',
    title: 'The token endpoint answers 429 above its rate limit, sheds rather than fails under overload, and recovers',
    requirements: ['TOKEN-RATE-LIMIT-429'],
  },
  'load',
);

export const TOKEN_BODY_SIZE_LIMIT = registerCheck(
  {
    id: 'load.token-body-size-limit',
    title: 'The token endpoint answers 413 to bodies above its size limit, found to the byte, with every framing',
    requirements: ['TOKEN-SIZE-LIMIT-413'],
  },
  'load',
);

export const ACCEPT_RATE_LIMIT = registerCheck(
  {
    id: 'load.accept-rate-limit',
    title: 'Accepting offers answers 429 above the rate limit, sheds rather than fails under overload, and recovers',
    requirements: ['OFFER-RATE-LIMIT-429'],
  },
  'load',
);

export const RATE_LIMITED_ACCEPT_NOT_EXECUTED = registerCheck(
  {
    id: 'load.rate-limited-accept-not-executed',
    title: 'An accept answered 429 did not execute the offer (read back)',
    requirements: ['OFFER-RATE-LIMITED-NOT-EXECUTED'],
  },
  'load',
);

export const RATE_LIMIT_HEADERS = registerCheck(
  {
    id: 'load.rate-limit-headers',
    title: 'What 429 answers say about retrying (Retry-After, RateLimit fields) parses and is consistent',
    requirements: ['RATE-LIMIT-HEADERS'],
  },
  'load',
);

export const LOAD_CHECKS: CheckMeta[] = registeredChecks('load');
