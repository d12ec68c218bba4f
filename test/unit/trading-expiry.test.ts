// An expired offer whose accept answered 202 is judged by where it ends
// (suites/trading/expired-202.ts): executed is a FAIL on the declared
// validity and 4.4 rule 2's sentence; ended without a trade is no finding; an
// end the profile gives no way to read, or polling that never showed it, is
// ERROR naming why. And the expiry checks' declared waits (expiry.ts): the
// recipes side by side with trading.createUser, in turn on the shared user.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CheckContext, CheckFailure } from '../../src/check/context.ts';
import { decideOutcome } from '../../src/check/outcome.ts';
import { Redactor } from '../../src/http/redact.ts';
import type { HttpResponse } from '../../src/http/client.ts';
import type { ResolvedProfile } from '../../src/config/profile.ts';
import { offerRecipes } from '../../src/config/sections/offer-recipes.ts';
import { judgeExpired202 } from '../../suites/trading/expired-202.ts';
import { expiryWaitsMs, type ExpiredAccept } from '../../suites/trading/expiry.ts';
import type { OfferEnd, OfferPolling } from '../../suites/trading/status.ts';

const createOffer = { method: 'POST', path: '/offers', extract: { offerId: '/data/id' } } as const;
const trading = {
  createOffer,
  offerRecipes: { expiringSlow: { values: { processingMs: 2000 }, acceptAnswers: 202, expiresAfterSeconds: 1 } },
} as const;
const profile = { name: 'test', baseUrl: 'http://127.0.0.1:1', trading } as unknown as ResolvedProfile;
const recipe = offerRecipes(profile.trading)!.expiring[0]!;

const res = { status: 202, exchangeId: 1, startedAt: new Date(), durationMs: 1, headers: {} } as unknown as HttpResponse;
const accepted: ExpiredAccept = { recipe, offer: { offerId: 'offer-1', userId: 'user-1', response: res }, res, what: 'accept of offer offer-1 (recipe expiringSlow)' };

function polled(status: string, tradeId?: string, reached = true): OfferPolling {
  const last = { read: true, terminal: reached, status, tradeId, httpStatus: 200, exchangeId: 2, summary: `status ${status} (HTTP 200)` };
  return { reached, last, polls: 3, elapsedMs: 2_100, deadlineMs: 10_000 };
}

function judged(end: OfferEnd) {
  const check = new CheckContext(new Redactor(), { requirements: ['OFFER-VALIDITY-PERIOD'], profile });
  try {
    judgeExpired202(check, accepted, end);
  } catch (error) {
    if (!(error instanceof CheckFailure)) throw error;
  }
  return decideOutcome({ severity: 'MUST', claims: check.claims });
}

test('a 202 to an expired offer that then executed: FAIL on the declared validity, quoting 4.4 rule 2', () => {
  const outcome = judged({ kind: 'executed', tradeId: 'trade-1', polling: polled('accepted', 'trade-1') });
  assert.equal(outcome.verdict, 'FAIL');
  assert.match(outcome.reason!, /was answered 202 \(received, still processing\) and then executed: 2\.1 s later its status shows status accepted \(HTTP 200\) with trade trade-1, although the profile declares such offers expire after 1 s/);
  assert.deepEqual(
    outcome.basis && [outcome.basis.kind, outcome.basis.kind === 'profile-declared' && outcome.basis.profileKey, outcome.basis.clause, outcome.basis.quote],
    ['profile-declared', 'trading.offerRecipes.expiringSlow.expiresAfterSeconds', '4.4 rule 2, 8', 'It must be accepted within its validity period.'],
  );
});

test('a 202 to an expired offer that ended without a trade: refused while processing, no finding', () => {
  const outcome = judged({ kind: 'ended', status: 'rejected', polling: polled('rejected') });
  assert.equal(outcome.verdict, 'PASS', outcome.reason);
  assert.match(outcome.findings.map((f) => f.message).join('\n'), /ended "rejected" without a trade: refused while processing/);
});

test('a 202 the profile gives no way to follow: ERROR naming the keys, never FAIL', () => {
  const outcome = judged({ kind: 'unfollowed' });
  assert.equal(outcome.verdict, 'ERROR');
  assert.match(outcome.reason!, /^not observed: whether the expired offer executed: .* \(set trading\.offerStatus \(extracting status and tradeId\), trading\.terminalStatuses and trading\.pollDeadlineMs\)$/);
});

test('a 202 whose offer was still processing at the poll deadline: ERROR, why named', () => {
  const outcome = judged({ kind: 'unseen', why: 'it was still status in_progress (HTTP 200) at the declared 10000 ms poll deadline (trading.pollDeadlineMs)', polling: polled('in_progress', undefined, false) });
  assert.equal(outcome.verdict, 'ERROR');
  assert.match(outcome.reason!, /then it was still status in_progress .* poll deadline/);
});

test('the expiry checks wait for the longest recipe when each has a user of its own, for all in turn on the shared user', () => {
  const recipes = { fast: { acceptAnswers: 200, expiresAfterSeconds: 1 }, expiringSlow: { acceptAnswers: 202, expiresAfterSeconds: 2 } };
  const withTrading = (more: object) => ({ ...profile, trading: { createOffer, offerRecipes: recipes, expiryMarginMs: 500, ...more } }) as unknown as ResolvedProfile;
  // Each: the validity, a whole second's step (the clock assumed) and the margin (at least that step).
  assert.equal(expiryWaitsMs(withTrading({ createUser: createOffer })), 2_000 + 1_000 + 1_000);
  assert.equal(expiryWaitsMs(withTrading({ userId: 'u' }), 100), 1_000 + 2_000 + 2 * (1_000 + 1_000 + 100));
  assert.equal(expiryWaitsMs(withTrading({ offerRecipes: { fast: { acceptAnswers: 200 } } })), 0);
});
