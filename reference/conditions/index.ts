// The catalogue of conditions of the reference: how real deployments behave
// around a correct implementation (types.ts). Each is inert unless named with
// --condition; any of them compose with each other, with faults and with variants.
import type { Condition } from './types.ts';
import { LATENCY_MAX_MS, LATENCY_MIN_MS } from './latency.ts';
import { PROXY_MAX_TARGET_BYTES } from './proxy-html.ts';
import { TRANSIENT_PERIOD } from './transient-period.ts';
import { SLOW_DELIVERY_TIMEOUT_MS, SLOW_FIRST_DELIVERY_MS, SLOW_RETRY_DELAYS_MS } from './slow-webhooks.ts';
import { LONG_PROCESSING_MS, LONG_PROCESSING_VALIDITY_SECONDS } from './long-processing.ts';
import { withLongProcessingDeclared, withSlowWebhooksDeclared } from './profile-adjustments.ts';
import { SHORT_TOKEN_LIFETIME_SECONDS } from './short-token-lifetime.ts';
import { SLOW_ACCEPT_MS, SLOW_TOKEN_MS } from './slow-processing.ts';

export type { Condition, ConditionArea } from './types.ts';

const seconds = (ms: number) => `${ms / 1000} s`;

export const CONDITIONS: readonly Condition[] = [
  {
    name: 'latency',
    description: `Every answer is delayed ${LATENCY_MIN_MS}-${LATENCY_MAX_MS} ms (uniform, 150 ± 100) after the operation ran, before it is written.`,
    touches: 'all',
  },
  {
    name: 'connection-close',
    description: 'Every answer carries Connection: close and the server closes the connection after it.',
    touches: 'all',
  },
  {
    name: 'proxy-html',
    description: `A proxy in front answers a request-target over ${PROXY_MAX_TARGET_BYTES / 1024} KiB with 414 and a NUL byte (%00) in path or query with 400, both as an HTML page (text/html), before the service sees the request.`,
    touches: 'all',
  },
  {
    name: 'transient-503',
    description: `Every ${TRANSIENT_PERIOD}th request of each operation (counted per route from a random phase, never two in a row) is answered 503 with Retry-After: 1 and the reference's error body, before the operation does anything.`,
    touches: 'all',
  },
  {
    name: 'transient-429',
    description: `Every ${TRANSIENT_PERIOD}th request of each operation (counted per route from a random phase, never two in a row) is answered 429 with Retry-After: 1 and the reference's error body, before the operation does anything.`,
    touches: 'all',
  },
  {
    name: 'gateway-html',
    description: `A gateway in front answers every ${TRANSIENT_PERIOD}th request of each operation (counted per route from a random phase, never two in a row) itself, with an HTML page (text/html) and Retry-After: 1 on every other one, before the service sees it: 502 or 504 in turn to a GET, 503 to the token endpoint and the set-up operations; withdrawal addresses and accept, whose rows list 503, pass through.`,
    touches: 'all',
  },
  {
    name: 'slow-webhooks',
    description: `The first delivery of an event comes ${seconds(SLOW_FIRST_DELIVERY_MS)} after it, retries ${SLOW_RETRY_DELAYS_MS.map(seconds).join(' and then ')} apart, and the receiver has ${seconds(SLOW_DELIVERY_TIMEOUT_MS)} to answer an attempt. The profile declares the schedule and waits long enough.`,
    touches: ['webhooks'],
    adjustProfile: withSlowWebhooksDeclared,
    stretchesWaitsOnly: true,
  },
  {
    name: 'deterministic-tokens',
    description: 'Access tokens carry no jti and whole-second iat/exp, so the same claims within one second give byte-identical access tokens (Ed25519 is deterministic); refresh tokens keep a unique jti and stay single-use.',
    touches: ['auth'],
  },
  {
    name: 'second-resolution',
    description: 'Every timestamp written (registered_at, created_at, valid_until, the trade time) is in whole seconds, without a fraction; an offer expires once the current whole second is past its whole-second expiry, so it may stay acceptable up to about 1 s longer than its validity.',
    touches: ['users', 'crypto-transfers', 'trading'],
  },
  {
    name: 'short-token-lifetime',
    description: `Access tokens live ${SHORT_TOKEN_LIFETIME_SECONDS} s (expires_in ${SHORT_TOKEN_LIFETIME_SECONDS}); after that every operation answers them 401, as a deployment with a strict policy does. The suite renews its own token.`,
    touches: 'all',
    observedByLoad: true,
  },
  {
    name: 'slow-processing',
    description: `An accept-offer the rate limiter lets through answers ${seconds(SLOW_ACCEPT_MS)} later, a token request ${seconds(SLOW_TOKEN_MS)} later (the operation done, its answer held); a 429 leaves at once. The limit probes must count by arrival and keep enough requests in flight.`,
    touches: ['auth', 'trading'],
    observedByLoad: true,
  },
  {
    name: 'long-processing',
    description: `An offer whose accept answers 202 takes ${seconds(LONG_PROCESSING_MS)} to reach its terminal status, and offers are valid ${LONG_PROCESSING_VALIDITY_SECONDS} s unless created with a validity of their own. The profile declares a poll deadline and validity to match.`,
    touches: ['trading'],
    adjustProfile: withLongProcessingDeclared,
    stretchesWaitsOnly: true,
  },
];

export function conditionByName(name: string): Condition | undefined {
  return CONDITIONS.find((c) => c.name === name);
}

/** The active conditions; unknown names are a usage error listing where to find the valid ones. */
export class ConditionSet {
  private readonly active: ReadonlySet<string>;

  constructor(names: Iterable<string> = []) {
    const list = [...names];
    const unknown = list.filter((n) => !conditionByName(n));
    if (unknown.length) throw new Error(`unknown condition${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')} (see --list-conditions)`);
    this.active = new Set(list);
  }

  has(name: string): boolean {
    // A misspelt name in the reference's own code would silently never apply.
    if (!conditionByName(name)) throw new Error(`reference bug: condition ${name} is not in the catalogue`);
    return this.active.has(name);
  }

  get names(): string[] {
    return [...this.active];
  }
}
