// What the refresh grant's answers say of renewal and single use (spec 4.1
// rule 2, 5 rule 2, 2.1), judged from what the checks of refresh.check.ts
// observed: statuses, when a request was sent, and whether two tokens are the
// same. Tokens are compared as the record keeps them — redacted, and a token
// is given the same marker wherever it appears in a run — so a stored run
// compares them as the live one did. Named and pure (src/check/judgments.ts).
import { isSuccess } from '../../runner/index.ts';
import { defineJudgment } from '../../src/check/judgments.ts';
import { clockOfTimes } from './refresh-renewal.ts';

export interface LaterRenewal {
  /** How long after its pair arrived the refresh was sent. */
  gapMs: number;
  /** The access token issued with the pair, and the one its refresh returned. */
  issuedAccessToken: string;
  renewedAccessToken: string;
  /** The returned token's iat and exp (null: it shows none). */
  iat: number | null;
  exp: number | null;
  status: number;
  exchange: number;
}

/**
 * A refresh sent a whole second after its pair was issued (the first
 * refresh returned a byte-identical token, which a deterministic signer
 * gives until its clock moves): still the very access token issued with the
 * pair, the refresh renewed nothing (FAIL); a new one, the identical one
 * before came from a clock that had not moved yet, which breaks no rule.
 */
export const renewalAfterClockMoved = defineJudgment<LaterRenewal>('auth.renewed-once-the-clock-moved', (input, says) => {
  const { gapMs, iat, exp, status, exchange } = input;
  if (input.renewedAccessToken === input.issuedAccessToken) {
    const again = clockOfTimes(iat ?? undefined, exp ?? undefined);
    return says.fail(
      `a refresh sent ${gapMs} ms after its token pair arrived (the issuer's clock in ${again.granularity}) still returned the very access token issued with the pair (iat ${again.iat ?? 'none'}), not a renewed one`,
      { gapMs, iat, exp, exchange },
      { observed: { kind: 'answer', status } },
    );
  }
  says.note(`a refresh sent ${gapMs} ms after the second pair arrived returned a new access token: the identical one within the first second came from a signer whose clock had not moved yet, which breaks no rule`);
});

export interface SuccessorFirstUse {
  /** The refresh token the refresh used, and the one it handed out. */
  used: string;
  successor: string;
  /** The answer to the successor's first use, and when it was sent (HH:MM:SS, UTC). */
  status: number;
  exchange: number;
  at: string;
}

/**
 * The first use of the refresh token a refresh handed out, which 2.1 calls
 * the "Credential used to obtain the next token pair": it must work. When it
 * is the very token the refresh used, accepted it shows the used token was
 * not invalidated (4.1 rule 2, the check's own sentence); refused, the
 * response handed out a dead credential (2.1).
 */
export const successorFirstUse = defineJudgment<SuccessorFirstUse>('auth.successor-first-use', (input, says) => {
  const { status, exchange, at } = input;
  const repeated = input.successor === input.used;
  const details = { actual: status, exchange };
  const observed = { kind: 'answer' as const, status };
  if (repeated && isSuccess(status)) {
    return says.fail(`the refresh handed back as refresh_token the very token it had used, and that token was accepted again at ${at}: ${status}`, details, { observed });
  }
  if (!isSuccess(status)) {
    const what = repeated
      ? 'the refresh response handed back as refresh_token the very token the request used, which the refresh had just invalidated: presented to obtain the next token pair, it'
      : 'the refresh token the refresh issued';
    return says.fail(`${what} was refused on its first use at ${at}: ${status}`, details, { on: 'SPEC-2-1-REFRESH-TOKEN', observed });
  }
});

export interface ReuseAnswer {
  /** Which token was used again: the one exchanged once, or the one the refresh issued (after its own first use). Not named `token`: the redactor hides every value of a key so named. */
  which: 'used-once' | 'issued-by-refresh';
  status: number;
  exchange: number;
  /** When the reuse was sent (HH:MM:SS, UTC). */
  at: string;
}

/** A refresh token used a second time and accepted: single use (5 rule 2) is broken. Its refusal is the refusal rule's to judge. */
export const reuseAccepted = defineJudgment<ReuseAnswer>('auth.reuse-accepted', ({ which, status, exchange, at }, says) => {
  if (!isSuccess(status)) return;
  const message = which === 'used-once' ? `refresh token reused at ${at} was accepted: ${status}` : `the refresh token issued by the refresh was accepted twice: ${status}`;
  says.fail(message, { expected: 'a 4xx refusal', actual: status, exchange }, { observed: { kind: 'answer', status } });
});
