// A token bucket: `ratePerSecond` sustained, `burst` at once. take() is
// synchronous so concurrent requests on the event loop cannot both spend the
// last token. With a burst of 1 it is a limiter without burst allowance (as
// nginx's limit_req without `burst=`): requests closer together than
// 1/ratePerSecond are refused.
import type { RateLimiter } from './limiter.ts';

export class TokenBucket implements RateLimiter {
  private tokens: number;
  private last: number;

  constructor(
    readonly ratePerSecond: number,
    readonly burst: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = burst;
    this.last = now();
  }

  private refill(): void {
    const t = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) / 1000) * this.ratePerSecond);
    this.last = t;
  }

  /** Spends one token; false when the bucket is empty. */
  take(): boolean {
    this.refill();
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return true;
    }
    return false;
  }

  /** Seconds until one token is available (at least 1, as Retry-After takes whole seconds). */
  retryAfterSeconds(): number {
    this.refill();
    return Math.max(1, Math.ceil((1 - this.tokens) / this.ratePerSecond));
  }

  /** The sustained rate as a quota: ratePerSecond requests per second. */
  get quota(): { limit: number; windowSeconds: number } {
    return { limit: this.ratePerSecond, windowSeconds: 1 };
  }

  /**
   * Headers of a refused (429) answer: Retry-After plus the RateLimit fields.
   * Remaining is 0 by definition: the request was refused because the bucket
   * was empty. (Reading the bucket again here would count what refilled in
   * the meantime and advertise quota on a 429, which the headers check flags.)
   */
  limitHeaders(policyName: string): Record<string, string> {
    const reset = this.retryAfterSeconds();
    return {
      'retry-after': String(reset),
      'ratelimit-policy': `"${policyName}";q=${this.ratePerSecond};w=1`,
      ratelimit: `"${policyName}";r=0;t=${reset}`,
    };
  }
}
