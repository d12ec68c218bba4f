// The judgments of the explored token lifecycle that the hand-written auth
// checks (suites/auth/) do not already define: what is recorded, never
// judged, when the model cannot say what the spec allows for a token (its
// standing is unsettled: explore/areas/tokens-state.ts). Pure, named, made
// again by `ptas rejudge` from the recorded input.
import { defineJudgment } from '../../src/check/judgments.ts';
import { isSuccess } from '../../src/check/context.ts';

export interface RecordedAccessToken {
  /** How the token was obtained and which it is, in the case's words. */
  how: string;
  path: string;
  status: number;
  exchange?: number;
  /**
   * Why the spec does not decide the answer: an access token issued before
   * the newest ('older'), one something since may have ended ('unsettled',
   * with why), or one whose lifetime may have run out ('ran-out').
   */
  standing: 'older' | 'unsettled' | 'ran-out';
  why?: string;
}

/**
 * An access token the spec does not say is still live, presented to a
 * protected GET: let in, noted; refused when it may have run out or after
 * something that may have ended it, noted; an older one refused (401 or
 * 403) after a newer one was issued, for a human — the spec does not say
 * whether a refresh or a new pair ends the access tokens issued before
 * (4.1 rule 2 invalidates the refresh token used, nothing else).
 */
export const recordedAccessToken = defineJudgment<RecordedAccessToken>('explore.auth.recorded-access-token', (input, says) => {
  const { how, path, status, exchange, standing, why } = input;
  if (isSuccess(status)) return says.note(`${how} was let in on GET ${path}: ${status}`);
  if (standing === 'ran-out') return says.note(`${how} was answered ${status} on GET ${path} once its expires_in may have run out: no finding`, { exchange });
  if (standing === 'unsettled') return says.note(`${how} was answered ${status} on GET ${path}; it may have been ended before (${why ?? 'not shown'}), so this is recorded, not judged`, { exchange });
  if (status === 401 || status === 403) {
    return says.review(`${how} was refused ${status} on GET ${path} after a newer access token was issued: the spec does not say whether a refresh or a new pair ends the access tokens issued before`, { exchange });
  }
  says.note(`${how} was answered ${status} on GET ${path}`, { exchange });
});

export interface UnsettledRefresh {
  /** The request, in the case's words. */
  what: string;
  status: number;
  exchange?: number;
  /** Why the spec does not say what the token is now. */
  why: string;
}

/** A refresh with a refresh token whose standing is unsettled: whatever it gets, recorded. */
export const unsettledRefresh = defineJudgment<UnsettledRefresh>('explore.auth.unsettled-refresh', ({ what, status, exchange, why }, says) => {
  says.note(`${what} was answered ${status}; what the token is now is not shown (${why}), so this is recorded, not judged`, { exchange });
});
