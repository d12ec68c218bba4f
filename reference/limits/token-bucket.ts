// A token bucket: `ratePerSecond` sustained, `burst` at once. take() is
// synchronous so concurrent requests on the event loop cannot both spend the
// last token.
export class TokenBucket {
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

  /** Whole tokens left now. */
  remaining(): number {
    this.refill();
    return Math.floor(this.tokens);
  }

  /** Seconds until one token is available (at least 1, as Retry-After takes whole seconds). */
  retryAfterSeconds(): number {
    this.refill();
    return Math.max(1, Math.ceil((1 - this.tokens) / this.ratePerSecond));
  }

  /** Headers of a rate-limited answer: Retry-After plus the RateLimit fields. */
  limitHeaders(policyName: string): Record<string, string> {
    const reset = this.retryAfterSeconds();
    return {
      'retry-after': String(reset),
      'ratelimit-policy': `"${policyName}";q=${this.ratePerSecond};w=1`,
      ratelimit: `"${policyName}";r=${this.remaining()};t=${reset}`,
    };
  }
}
