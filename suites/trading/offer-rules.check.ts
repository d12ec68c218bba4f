// Which offers can be accepted (spec 4.4 rules 1-2, 3.1): only the newest of
// a user, only within its validity period, and each only once — also when
// accepts arrive at the same time.
import { defineCheck, isServerError } from '../../src/check/index.ts';
import type { CheckContext, CheckFixtures, HttpResponse } from '../../src/check/index.ts';
import {
  ACCEPTED,
  NOT_ACCEPTABLE,
  accept,
  acceptOnce,
  checkUser,
  clockOf,
  createOffer,
  freshOffer,
  isAccepted,
  pollOffer,
  shortId,
  tradingSection,
} from './support.ts';
import { retryAfterMs } from '../../src/auth/tokens.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Longest an expiry check waits for an offer to run out, inside the 60 s check limit. */
const MAX_EXPIRY_WAIT_MS = 45_000;

defineCheck(
  {
    id: 'trading.older-offer-rejected',
    title: 'Only the newest offer of a user can be accepted',
    area: 'trading',
    requirements: ['OFFER-NEWEST-ONLY'],
    severity: 'MUST',
  },
  async ({ check, http, profile, tokens }) => {
    const section = tradingSection(profile, check);
    const bearer = await tokens.get();
    const userId = await checkUser(check, http, section, bearer);
    const older = await createOffer(http, section, bearer, { userId, processingMs: section.fastProcessingMs }, 'create the older offer');
    const newer = await createOffer(http, section, bearer, { userId, processingMs: section.fastProcessingMs }, 'create a newer offer for the same user');
    const res = await accept(check, http, older.offerId, { bearer, userId, label: 'accept the older offer' });
    if (isAccepted(res.status)) {
      check.fail(`the older offer ${shortId(older.offerId)} was accepted at ${clockOf(res)} although ${shortId(newer.offerId)} is newer: ${res.status}`, {
        expected: `4xx (${NOT_ACCEPTABLE.join('/')})`,
        actual: res.status,
      });
    }
    check.expectRejected(res, `accept of the older offer ${shortId(older.offerId)}`, NOT_ACCEPTABLE);
    const newest = await accept(check, http, newer.offerId, { bearer, userId, label: 'accept the newest offer' });
    check.expectStatus(newest, ACCEPTED, `accept of the newest offer ${shortId(newer.offerId)} after the older one was refused`);
  },
);

/** Creates an offer with trading.expiryValiditySeconds, waits until it has run out, and accepts it. */
async function acceptExpiredOffer(check: CheckContext, fixtures: Pick<CheckFixtures, 'http' | 'profile' | 'tokens'>): Promise<{ res: HttpResponse; what: string }> {
  const { http, profile, tokens } = fixtures;
  const section = tradingSection(profile, check);
  const validity = section.expiryValiditySeconds;
  if (validity === undefined) return check.skip('no short validity period to let an offer expire', 'trading.expiryValiditySeconds');
  const waitMs = validity * 1000 + (section.expiryMarginMs ?? 750);
  if (waitMs > MAX_EXPIRY_WAIT_MS) return check.skip(`waiting ${waitMs} ms for an offer to expire exceeds the check's limit`, 'trading.expiryValiditySeconds');
  const bearer = await tokens.get();
  const userId = await checkUser(check, http, section, bearer);
  const offer = await createOffer(http, section, bearer, { userId, processingMs: section.fastProcessingMs, validitySeconds: validity });
  check.event('offer created', `offer ${shortId(offer.offerId)} valid for ${validity} s; waiting ${waitMs} ms`);
  await sleep(waitMs);
  const res = await accept(check, http, offer.offerId, { bearer, userId, label: `accept ${waitMs} ms after creation` });
  return { res, what: `accept of offer ${shortId(offer.offerId)} at ${clockOf(res)}, ${waitMs} ms after it was created with a ${validity} s validity period` };
}

defineCheck(
  {
    id: 'trading.expired-offer-rejected',
    title: 'An offer cannot be accepted after its validity period',
    area: 'trading',
    requirements: ['OFFER-VALIDITY-PERIOD'],
    severity: 'MUST',
  },
  async ({ check, ...fixtures }) => {
    const { res, what } = await acceptExpiredOffer(check, fixtures);
    // Which 4xx is the concern of trading.expired-offer-410; here only that it is refused.
    if (isAccepted(res.status) || res.status < 400) check.fail(`${what} was accepted: ${res.status}`, { expected: '4xx (410)', actual: res.status });
    if (isServerError(res.status)) check.fail(`${what} caused a server error: ${res.status}`, { expected: '4xx (410)', actual: res.status });
  },
);

defineCheck(
  {
    id: 'trading.expired-offer-410',
    title: 'An expired offer is answered 410 (record gone)',
    area: 'trading',
    requirements: ['OFFER-EXPIRED-410'],
    severity: 'SHOULD',
  },
  async ({ check, ...fixtures }) => {
    const { res, what } = await acceptExpiredOffer(check, fixtures);
    check.expectStatus(res, 410, what);
  },
);

defineCheck(
  {
    id: 'trading.second-accept-rejected',
    title: 'An accepted offer cannot be accepted again',
    area: 'trading',
    requirements: ['OFFER-SINGLE-EXECUTION'],
    severity: 'MUST',
  },
  async ({ check, http, profile, tokens }) => {
    const { section, bearer, userId, offer } = await freshOffer({ check, http, profile, tokens });
    const first = await accept(check, http, offer.offerId, { bearer, userId, label: 'first accept' });
    check.expectStatus(first, ACCEPTED, `first accept of offer ${shortId(offer.offerId)}`);
    // An offer still in progress is not the whole story: a finished one must not be acceptable either.
    if (first.status === 202 && section.offerStatus && section.pollDeadlineMs) {
      const outcome = await pollOffer(check, http, section, bearer, offer);
      if (!outcome.reached) check.note(`offer ${shortId(offer.offerId)} was still processing at the second accept`);
    }
    const second = await accept(check, http, offer.offerId, { bearer, userId, label: 'second accept of the same offer' });
    if (isAccepted(second.status)) {
      check.fail(`second accept of offer ${shortId(offer.offerId)} at ${clockOf(second)} was accepted: ${second.status}`, {
        expected: `4xx (${NOT_ACCEPTABLE.join('/')})`,
        actual: second.status,
        first: first.status,
      });
    }
    check.expectRejected(second, `second accept of offer ${shortId(offer.offerId)} at ${clockOf(second)}`, NOT_ACCEPTABLE);
  },
);

defineCheck(
  {
    id: 'trading.concurrent-accepts-execute-once',
    title: 'Of simultaneous accepts of one offer exactly one answers 200 or 202',
    area: 'trading',
    requirements: ['OFFER-SINGLE-EXECUTION-ATOMIC'],
    severity: 'MUST',
  },
  async ({ check, http, profile, tokens }) => {
    const section = tradingSection(profile, check);
    const n = section.concurrency ?? 8;
    const bearer = await tokens.get();
    const userId = await checkUser(check, http, section, bearer);
    // Two rounds at most: a round the rate limit answered entirely with 429 exercised nothing.
    for (let round = 1; round <= 2; round++) {
      const offer = await createOffer(http, section, bearer, { userId, processingMs: section.fastProcessingMs });
      // One attempt each: retrying a 429 here would serialize the race away.
      const results = await Promise.all(
        Array.from({ length: n }, (_, i) => acceptOnce(http, offer.offerId, { bearer, userId, label: `simultaneous accept ${i + 1}/${n}` })),
      );
      const statuses = results.map((r) => r.status);
      const accepted = statuses.filter(isAccepted).length;
      check.event(`round ${round}: ${n} simultaneous accepts answered`, statuses.join(', '));
      if (accepted > 1) {
        check.fail(`${accepted} of ${n} simultaneous accepts of offer ${shortId(offer.offerId)} at ${clockOf(results[0]!)} were accepted (${statuses.join(', ')}); exactly one may be`, {
          statuses,
        });
      }
      if (statuses.some(isServerError)) check.fail(`a simultaneous accept of offer ${shortId(offer.offerId)} caused a server error (${statuses.join(', ')})`, { statuses });
      if (accepted === 1) return;
      const limited = results.filter((r) => r.status === 429);
      if (limited.length < n) {
        check.fail(`none of ${n} simultaneous accepts of the newest offer ${shortId(offer.offerId)} was accepted (${statuses.join(', ')})`, { statuses });
      }
      await sleep(retryAfterMs(limited[0]!));
    }
    check.skip(`every simultaneous accept was rate limited (429) in both rounds, so the race was not exercised`);
  },
);
