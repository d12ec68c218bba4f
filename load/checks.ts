// The checks the load stage reports, with their requirements: listed here so
// `ptas list` and the requirement-coverage test see them without running load.
import type { CheckMeta } from '../src/check/model.ts';

export const TOKEN_RATE_LIMIT: CheckMeta = {
  id: 'load.token-rate-limit',
  title: 'The token endpoint answers 429 above its rate limit, sheds rather than fails under overload, and recovers',
  area: 'load',
  requirements: ['TOKEN-RATE-LIMIT-429'],
  severity: 'MUST',
};

export const TOKEN_BODY_SIZE_LIMIT: CheckMeta = {
  id: 'load.token-body-size-limit',
  title: 'The token endpoint answers 413 to bodies above its size limit, found to the byte, with every framing',
  area: 'load',
  requirements: ['TOKEN-SIZE-LIMIT-413'],
  severity: 'MUST',
};

export const ACCEPT_RATE_LIMIT: CheckMeta = {
  id: 'load.accept-rate-limit',
  title: 'Accepting offers answers 429 above the rate limit, sheds rather than fails under overload, and recovers',
  area: 'load',
  requirements: ['OFFER-RATE-LIMIT-429'],
  severity: 'MUST',
};

export const RATE_LIMITED_ACCEPT_NOT_EXECUTED: CheckMeta = {
  id: 'load.rate-limited-accept-not-executed',
  title: 'An accept answered 429 did not execute the offer (read back)',
  area: 'load',
  requirements: ['OFFER-RATE-LIMITED-NOT-EXECUTED'],
  severity: 'MUST',
};

export const RATE_LIMIT_HEADERS: CheckMeta = {
  id: 'load.rate-limit-headers',
  title: 'What 429 answers say about retrying (Retry-After, RateLimit fields) parses and is consistent',
  area: 'load',
  requirements: ['RATE-LIMIT-HEADERS'],
  severity: 'REVIEW',
};

export const LOAD_CHECKS: CheckMeta[] = [TOKEN_RATE_LIMIT, TOKEN_BODY_SIZE_LIMIT, ACCEPT_RATE_LIMIT, RATE_LIMITED_ACCEPT_NOT_EXECUTED, RATE_LIMIT_HEADERS];
