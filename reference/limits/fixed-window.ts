// A fixed-window counter: at most `limit` requests per window of
// `windowSeconds`, the count starting again at each window boundary of the
// clock (the rate-limit-fixed-window variant). Unlike a token bucket it lets a
// whole window's quota through at once and then refuses until the next
// window, so a client can get up to twice the quota across a boundary.
export class FixedWindow {
  private window = -1;
  private count = 0;

  constructor(
    readonly limit: number,
    readonly windowSeconds: number,
    private readonly now: () => number = () => Date.now(),
  ) {}

  private current(): number {
    const window = Math.floor(this.now() / (this.windowSeconds * 1000));
    if (window !== this.window) {
      this.window = window;
      this.count = 0;
    }
    return window;
  }

  take(): boolean {
    this.current();
    if (this.count >= this.limit) return false;
    this.count++;
    return true;
  }

  /** Whole seconds until the next window starts (at least 1). */
  retryAfterSeconds(): number {
    const window = this.current();
    const endsAt = (window + 1) * this.windowSeconds * 1000;
    return Math.max(1, Math.ceil((endsAt - this.now()) / 1000));
  }

  get quota(): { limit: number; windowSeconds: number } {
    return { limit: this.limit, windowSeconds: this.windowSeconds };
  }

  /** Retry-After until the next window, and the window as a RateLimit policy with nothing left in it. */
  limitHeaders(policyName: string): Record<string, string> {
    const reset = this.retryAfterSeconds();
    return {
      'retry-after': String(reset),
      'ratelimit-policy': `"${policyName}";q=${this.limit};w=${this.windowSeconds}`,
      ratelimit: `"${policyName}";r=0;t=${reset}`,
    };
  }
}
