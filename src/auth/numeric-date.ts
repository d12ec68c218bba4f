// RFC 7519 §2: a JWT's time claims are NumericDates, seconds since the epoch.
// A claim written in milliseconds is told apart by where it lands: read as
// seconds it is tens of thousands of years away, read as milliseconds it is
// near the moment the token was issued. Anything else (a long lifetime, a
// clock a little off) is left alone: only the unit mix-up is a contradiction.

const TIME_CLAIMS = ['exp', 'iat', 'nbf'] as const;
const YEAR_S = 365.25 * 86_400;
/** Read as seconds, a claim further than this from issuance is no time a token could mean. */
const IMPLAUSIBLE_AS_SECONDS = 1000 * YEAR_S;
/** Read as milliseconds, a claim within this of issuance is a time a token could mean. */
const PLAUSIBLE_AS_MILLISECONDS = 10 * YEAR_S;

export interface MillisecondClaim {
  claim: (typeof TIME_CLAIMS)[number];
  value: number;
  /** The instant the value names when read in milliseconds. */
  asMilliseconds: string;
}

/** The time claims of `payload` written in milliseconds, judged against the time the token was issued. */
export function millisecondTimeClaims(payload: Record<string, unknown>, issuedAtMs: number): MillisecondClaim[] {
  const issuedS = issuedAtMs / 1000;
  const found: MillisecondClaim[] = [];
  for (const claim of TIME_CLAIMS) {
    const value = payload[claim];
    if (typeof value !== 'number' || !Number.isFinite(value)) continue;
    if (Math.abs(value - issuedS) > IMPLAUSIBLE_AS_SECONDS && Math.abs(value / 1000 - issuedS) < PLAUSIBLE_AS_MILLISECONDS) {
      found.push({ claim, value, asMilliseconds: new Date(value).toISOString() });
    }
  }
  return found;
}
