// Faults of the token endpoint's limits (spec 7, 8), caught by the load
// probes (load/stage.ts) rather than by a conformance check — or, for
// rate-limit-429-html, by errors.error-bodies-are-json over the error answers
// the load stage received (load/stage/crosscut.ts): only load draws them, so
// the conformance self-test leaves these faults to test/load/faults.test.ts.
import type { Fault } from './types.ts';

export const loadFaults: Fault[] = [
  { name: 'no-token-rate-limit', requirement: 'TOKEN-RATE-LIMIT-429', description: 'The token endpoint has no rate limit: it never answers 429.' },
  { name: 'token-rate-limit-503', requirement: 'TOKEN-RATE-LIMIT-429', description: 'Above the rate limit the token endpoint answers 503 instead of 429.' },
  { name: 'token-rate-limit-reset', requirement: 'TOKEN-RATE-LIMIT-429', description: 'Above the rate limit the token endpoint drops the connection instead of answering 429.' },
  {
    name: 'rate-limit-headers-malformed',
    requirement: 'RATE-LIMIT-HEADERS',
    description: 'The token endpoint\'s 429 carries Retry-After "soon" and a RateLimit field claiming requests remain.',
  },
  {
    name: 'rate-limit-429-html',
    requirement: 'ERROR-BODIES-JSON',
    description: 'The token endpoint\'s 429 answers carry an HTML page (text/html) instead of a JSON body.',
    // The token staircase needs nothing beyond what `ptas init --yes` writes: on loopback it climbs blind to its default cap.
    minimalProfile: [],
  },
  { name: 'no-token-body-limit', requirement: 'TOKEN-SIZE-LIMIT-413', description: 'The token endpoint reads bodies of any size and never answers 413.' },
  { name: 'token-body-limit-reset', requirement: 'TOKEN-SIZE-LIMIT-413', description: 'Above the body limit the token endpoint drops the connection instead of answering 413.' },
  {
    name: 'token-body-limit-chunked-unchecked',
    requirement: 'TOKEN-SIZE-LIMIT-413',
    description: 'The body limit is checked against Content-Length only: a chunked body of any size is read.',
  },
];
