// The rate limiters of the token endpoint and of accept-offer (spec 8: "Rate
// limit (status 429) | Token endpoint, accept trade offer | not shown"), and
// what their 429s carry. The spec shows neither the algorithm nor the fields
// of a 429 (7: "the condition that causes ... 429 ...: not shown"), so the
// reference has one default and the legitimate load variants
// (reference/variants/load.ts) the others a real gateway shows:
//
//   default                     token bucket (rate, burst); Retry-After plus RateLimit-Policy/RateLimit
//   token-rate-limit-burstless  token endpoint: a bucket of one token, no burst allowance
//   rate-limit-fixed-window     both: N requests per one-second window, counted from the window's start
//   rate-limit-no-retry-after   both: 429s carry neither Retry-After nor any rate-limit field
//   rate-limit-ietf-fields      both: RateLimit-Policy/RateLimit structured fields only, two quotas
//   rate-limit-legacy-fields    both: X-RateLimit-Limit/-Remaining/-Reset (Unix time), Retry-After as an HTTP-date
import type { ReferenceContext } from '../context.ts';
import { FixedWindow } from './fixed-window.ts';
import type { RateLimiter } from './limiter.ts';
import { TokenBucket } from './token-bucket.ts';

export type LimitedOperation = 'token' | 'accept';

const HOUR_SECONDS = 3_600;

/**
 * Counts what a limiter admits per clock hour, for a second, hourly quota in
 * the IETF fields: an implementation commonly has several, and a 429 names
 * the one that refused (r=0) next to others that still have room.
 */
class HourlyQuota {
  private hour = -1;
  private admitted = 0;

  constructor(readonly limit: number) {}

  private roll(): void {
    const hour = Math.floor(Date.now() / 1000 / HOUR_SECONDS);
    if (hour !== this.hour) {
      this.hour = hour;
      this.admitted = 0;
    }
  }

  count(): void {
    this.roll();
    this.admitted++;
  }

  remaining(): number {
    this.roll();
    return Math.max(0, this.limit - this.admitted);
  }

  resetSeconds(): number {
    return Math.max(1, Math.ceil(HOUR_SECONDS - ((Date.now() / 1000) % HOUR_SECONDS)));
  }
}

type HeaderStyle = 'default' | 'none' | 'ietf' | 'legacy';

function headerStyle(ctx: ReferenceContext): HeaderStyle {
  if (ctx.variants.has('rate-limit-no-retry-after')) return 'none';
  if (ctx.variants.has('rate-limit-ietf-fields')) return 'ietf';
  if (ctx.variants.has('rate-limit-legacy-fields')) return 'legacy';
  return 'default';
}

/** The limiter's algorithm wrapped so its 429 headers follow the active header variant. */
class StyledLimiter implements RateLimiter {
  private readonly hourly: HourlyQuota;

  constructor(
    private readonly inner: TokenBucket | FixedWindow,
    private readonly style: HeaderStyle,
  ) {
    // Generous enough never to be the quota that refuses: it only shows a second policy with room left.
    this.hourly = new HourlyQuota(10 * inner.quota.limit * (HOUR_SECONDS / inner.quota.windowSeconds));
  }

  get quota() {
    return this.inner.quota;
  }

  take(): boolean {
    const admitted = this.inner.take();
    if (admitted) this.hourly.count();
    return admitted;
  }

  retryAfterSeconds(): number {
    return this.inner.retryAfterSeconds();
  }

  limitHeaders(policyName: string): Record<string, string> {
    switch (this.style) {
      case 'none':
        return {};
      case 'ietf':
        return this.ietfHeaders(policyName);
      case 'legacy':
        return this.legacyHeaders();
      default:
        return this.inner.limitHeaders(policyName);
    }
  }

  /** draft-ietf-httpapi-ratelimit-headers (08 and later): two quotas, the short one exhausted, no Retry-After. */
  private ietfHeaders(policyName: string): Record<string, string> {
    const { limit, windowSeconds } = this.inner.quota;
    const reset = this.inner.retryAfterSeconds();
    const hourly = `"${policyName}-hourly"`;
    return {
      'ratelimit-policy': `"${policyName}";q=${limit};w=${windowSeconds}, ${hourly};q=${this.hourly.limit};w=${HOUR_SECONDS}`,
      ratelimit: `"${policyName}";r=0;t=${reset}, ${hourly};r=${this.hourly.remaining()};t=${this.hourly.resetSeconds()}`,
    };
  }

  /** The de-facto X-RateLimit-* fields with the reset as a Unix time, and Retry-After as an HTTP-date (RFC 9110 10.2.3). */
  private legacyHeaders(): Record<string, string> {
    const nowSec = Math.floor(Date.now() / 1000);
    const retryAt = nowSec + this.inner.retryAfterSeconds();
    return {
      // Date written here, from the same second, so Retry-After minus Date is the wait exactly.
      date: new Date(nowSec * 1000).toUTCString(),
      'retry-after': new Date(retryAt * 1000).toUTCString(),
      'x-ratelimit-limit': String(this.inner.quota.limit),
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(retryAt),
    };
  }
}

/** The limiter of one operation, with its algorithm and 429 headers chosen by the active variants. */
export function rateLimiterFor(ctx: ReferenceContext, operation: LimitedOperation): RateLimiter {
  const rate = operation === 'token' ? ctx.options.tokenRatePerSecond : ctx.options.acceptRatePerSecond;
  const burst = operation === 'token' ? ctx.options.tokenBurst : ctx.options.acceptBurst;
  let algorithm: TokenBucket | FixedWindow;
  if (ctx.variants.has('rate-limit-fixed-window')) algorithm = new FixedWindow(rate, 1);
  else if (operation === 'token' && ctx.variants.has('token-rate-limit-burstless')) algorithm = new TokenBucket(rate, 1);
  else algorithm = new TokenBucket(rate, burst);
  return new StyledLimiter(algorithm, headerStyle(ctx));
}
