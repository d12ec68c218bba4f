// The "trading" section of the reference's own implementation profile: the
// reference-only operations of routes/trading.ts, and processing and
// offer recipes that exercise both the 200 and the 202 path, and expiry on each.
import type { TradingProfile } from '../../src/config/sections/trading.ts';
import { seedUsers } from '../fixtures/users.ts';
import type { ReferenceOptions } from '../options.ts';

export function tradingSection(_baseUrl: string, options: ReferenceOptions): TradingProfile {
  const users = seedUsers(options.seed);
  const predefined = options.acceptPredefinedTimeMs;
  // Well clear of the predefined time on both sides, so a busy machine does not flip 200 and 202.
  const fastMs = Math.min(options.offerProcessingMs, Math.floor(predefined / 4));
  const slowMs = Math.max(1_000, predefined * 4);
  return {
    userId: users[1]!.id,
    otherUserId: users[3]!.id,
    createUser: { method: 'POST', path: '/reference/v1/users', expectStatus: [201], extract: { userId: '/data/id' } },
    createOffer: {
      method: 'POST',
      path: '/reference/v1/users/{userId}/offers',
      body: { processingMs: '{processingMs}', validitySeconds: '{validitySeconds}' },
      expectStatus: [201],
      extract: { offerId: '/data/id', status: '/data/status' },
    },
    offerStatus: {
      method: 'GET',
      path: '/reference/v1/offers/{offerId}',
      headers: { 'svc-user-id': '{userId}' },
      expectStatus: [200],
      // tradeId: the trade of the offer's execution, so a second execution shows as a new trade id.
      extract: { status: '/data/status', externalTransactionId: '/data/external_transaction_id', tradeId: '/data/trade/trade_id' },
    },
    // Which offer answers 200 and which 202 is a processing time here; a real implementation's recipes
    // may instead set an amount or a flag in the body (the offer-slow-by-body-value variant's profile).
    offerRecipes: {
      fast: { values: { processingMs: fastMs }, acceptAnswers: 200 },
      slow: { values: { processingMs: slowMs }, acceptAnswers: 202 },
      expiring: { values: { processingMs: fastMs, validitySeconds: 1 }, expiresAfterSeconds: 1 },
      // An expiring offer on the slow path too, where validity may go unchecked (fault offer-expiry-fast-path-only);
      // acceptAnswers lets ptas doctor confirm it takes that path.
      expiringSlow: { values: { processingMs: slowMs, validitySeconds: 1 }, acceptAnswers: 202, expiresAfterSeconds: 1 },
    },
    terminalStatuses: ['accepted'],
    processingTimeMs: predefined,
    validitySeconds: options.offerValiditySeconds,
    expiryMarginMs: 750,
    pollDeadlineMs: Math.max(10_000, predefined * 4 + 5_000),
    pollIntervalMs: 100,
    pollMaxIntervalMs: 1_000,
    concurrency: 8,
  };
}
