// What a route asks of a rate limiter, whichever algorithm and 429 fields
// the active variants chose (rate-limiter.ts). Only the interface lives here,
// so an algorithm (token-bucket.ts) can declare that it fulfils it without
// importing the module that constructs it.
export interface RateLimiter {
  /** Admits one request, or false when it is over the limit. */
  take(): boolean;
  /** Whole seconds until a request would be admitted again (at least 1). */
  retryAfterSeconds(): number;
  /** The sustained rate as a quota of `limit` requests per `windowSeconds`. */
  readonly quota: { limit: number; windowSeconds: number };
  /** The headers of a 429 answer, as the active variants write them. */
  limitHeaders(policyName: string): Record<string, string>;
}
