// A request sent with an access token a check obtains for itself (not the
// suite's own, which renews itself): a 401 that came once the token may have
// run out says nothing of the request. Under a short token lifetime on a slow
// or busy path (the token's answer held, the worker late to read it) that
// happens to a correct implementation, so a new token is tried, and if each
// ran out so, the check could not observe its rule: ERROR, never a FAIL.
import type { CheckContext, HttpResponse } from '../../runner/index.ts';
import type { ResolvedProfile } from '../../src/config/profile.ts';
import { earliestExpiryMs } from '../../src/auth/tokens.ts';

/** How many tokens are obtained when each ran out before its answer came. */
const TOKEN_ATTEMPTS = 3;

/**
 * `send` with a token from `obtain`, again with a new token while the answer
 * is a 401 that came once the token may have run out (expires_in, counted
 * from the request for it, less the whole second a server keeping
 * whole-second timestamps may cut from it). The answer returned is one
 * whose 401, if it is one, the token's lifetime does not explain.
 */
export async function sendWithIssuedToken(
  check: CheckContext,
  profile: ResolvedProfile,
  obtain: () => Promise<{ accessToken: string; expiresIn: number }>,
  send: (accessToken: string) => Promise<HttpResponse>,
  what: string,
): Promise<HttpResponse> {
  for (let attempt = 1; ; attempt++) {
    const askedAt = Date.now();
    const { accessToken, expiresIn } = await obtain();
    const res = await send(accessToken);
    const expiryMs = earliestExpiryMs(profile, expiresIn);
    const elapsedMs = Date.now() - askedAt;
    if (res.status !== 401 || expiryMs === undefined || elapsedMs < expiryMs) return res;
    const why = `the 401 came ${(elapsedMs / 1000).toFixed(1)} s after the token was asked for, when its expires_in of ${expiresIn} may have run out (counted from the whole second it was issued in)`;
    if (attempt === TOKEN_ATTEMPTS) {
      check.notObserved(`${what} was answered 401 ${TOKEN_ATTEMPTS} times, each once its token may have run out (${why})`, { actual: res.status, exchange: res.exchangeId });
    }
    check.event('token ran out before its answer', `${why}: a new one`);
  }
}
