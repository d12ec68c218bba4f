// slow-processing: the rate-limited operations take long to answer once
// their limiter has let a request through, as a deployment does whose accept
// books through an exchange and whose token endpoint hashes the client
// secret. The limiter decides at once (a 429 leaves immediately); an admitted
// request's answer is held, the operation already done, as latency.ts holds
// one. What the limit probes must then get right (issue 29): a step's
// answers arrive after the step, the in-flight bound must cover the rate
// times the latency, and admissions are counted by when requests arrived.
import type { ServerResponse } from 'node:http';
import { delayAnswer } from './latency.ts';

/** How long an admitted accept-offer answer is held: longer than a one-second staircase step. */
export const SLOW_ACCEPT_MS = 1_200;
/** How long an admitted token-endpoint answer is held. */
export const SLOW_TOKEN_MS = 300;

/** Holds the answer of a request the limiter admitted on `operation`, under slow-processing. */
export function holdAdmittedAnswer(conditions: { has(name: string): boolean }, operation: 'accept' | 'token', res: ServerResponse): void {
  if (!conditions.has('slow-processing')) return;
  delayAnswer(res, operation === 'accept' ? SLOW_ACCEPT_MS : SLOW_TOKEN_MS);
}
