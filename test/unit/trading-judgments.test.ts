// The named judgments of suites/trading (src/check/judgments.ts): applied
// through a check's context, each makes the claims the inline calls it
// replaced made (message, details, level, basis, what the claim rests on), and
// its record judged again — also after a JSON round trip, as results.json
// keeps it — gives the verdict, reason and basis the check had live. Each
// judgment that can FAIL FAILs on an input that contradicts its rule and
// makes no FAIL on one that holds it; every input judges the same after
// JSON.parse(JSON.stringify(input)).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CheckContext } from '../../src/check/context.ts';
import { contextWith, toItsEnd } from '../support/check-context.ts';
import { judgeRecord } from '../../src/check/record.ts';
import { decideOutcome } from '../../src/check/outcome.ts';
import type { NamedJudgment } from '../../src/check/judgments.ts';
import type { Severity } from '../../src/check/model.ts';
import type { ResolvedProfile } from '../../src/config/profile.ts';
import { fastOfferAnswered200, slowOfferAnswered202, type FastOfferAnswer, type SlowOfferAnswer } from '../../suites/trading/recipe-answers.ts';
import {
  acceptAnswerIsJson,
  acceptedAnswerCarriesTrade,
  acceptWithBody,
  acceptWithExternalTransactionId,
  dataKindOf,
  externalTransactionIdReported,
  type AcceptAnswerBody,
  type AcceptAnswerData,
  type AcceptWithBody,
  type AcceptWithExternalId,
} from '../../suites/trading/accept-answers.ts';
import { secondAcceptExecutesNothing, type SecondAccept } from '../../suites/trading/second-accept.ts';
import { raceExecutions, raceLosers, raceNoneAccepted, needsStatusTrade, type RaceAnswers, type RaceExecutions } from '../../suites/trading/race.ts';
import { offerReachesTerminalStatus, type OfferPolled } from '../../suites/trading/polling-judgment.ts';
import { expiredOffer202End, expiredOfferNotAccepted, type Expired202End, type ExpiredOfferAnswer } from '../../suites/trading/expired-202.ts';

interface Meta {
  severity: Severity;
  requirements: string[];
}

const trading = {
  pollDeadlineMs: 10_000,
  offerStatus: { method: 'GET', path: '/offers/{offerId}', expectStatus: [200], extract: { status: '/data/status', tradeId: '/data/trade_id' } },
  offerRecipes: {
    fast: { body: { amount: '10.00' }, acceptAnswers: 200 },
    slow: { values: { processingMs: 2000 }, acceptAnswers: 202 },
    expiringSlow: { values: { processingMs: 2000 }, acceptAnswers: 202, expiresAfterSeconds: 1 },
  },
};
const profile = { name: 'test', baseUrl: 'http://127.0.0.1:1', trading } as unknown as ResolvedProfile;

/** A check's context, with the answers (exchange id → status) its evidence holds, as a live check's does. */
const contextOf = (meta: Meta, answers: Record<number, number> = {}): CheckContext => contextWith({ requirements: meta.requirements, profile, answers });

/** Runs what a check body does, to its end if it ends. */
function run(check: CheckContext, body: (check: CheckContext) => void): CheckContext {
  toItsEnd(() => body(check));
  return check;
}

/** The claims as the verdict reads them (the catalogue's words beside the references). */
const claimsOf = (check: CheckContext) => check.claims;

/**
 * The judgment applied through a context, against the inline calls it
 * replaced on another: the same claims; and its record judged again, as kept
 * and after a JSON round trip, the verdict, reason, basis and findings it had live.
 */
function sameAsInline<I>(meta: Meta, answers: Record<number, number>, judgment: NamedJudgment<I>, input: I, inline: (check: CheckContext) => void) {
  const judged = run(contextOf(meta, answers), (check) => check.judge(judgment, input));
  const before = run(contextOf(meta, answers), inline);
  assert.deepEqual(claimsOf(judged), claimsOf(before), 'the claims the inline calls made');
  assert.equal(judged.entries.length, 1);
  assert.equal((judged.entries[0] as { judgment?: string }).judgment, judgment.name, 'the record keeps the judgment, not its claims');
  const live = decideOutcome({ severity: meta.severity, claims: judged.claims });
  for (const claims of [judged.entries, JSON.parse(JSON.stringify(judged.entries))]) {
    const again = judgeRecord(meta, { claims });
    assert.equal(again.verdict, live.verdict);
    assert.equal(again.reason, live.reason);
    assert.deepEqual(again.basis, live.basis);
    assert.deepEqual(again.findings, live.findings);
  }
  return live;
}

/** What a judgment says of an input, and of the same input after a JSON round trip (they must agree). */
function said<I>(judgment: NamedJudgment<I>, input: I) {
  const judged = judgment.judge(input);
  assert.deepEqual(judgment.judge(JSON.parse(JSON.stringify(input)) as I), judged, `${judgment.name}: the input judges the same after a JSON round trip`);
  return judged;
}
const fails = (judged: { claims: Array<{ level: string }> }) => judged.claims.some((c) => c.level === 'FAIL');

function failsAndHolds<I>(judgment: NamedJudgment<I>, contradicting: I, holding: I): void {
  const no = said(judgment, contradicting);
  assert.ok(fails(no), `${judgment.name} FAILs on ${JSON.stringify(contradicting)}`);
  assert.equal(no.ends, true, `${judgment.name}: its FAIL ends the check`);
  const yes = said(judgment, holding);
  assert.ok(!fails(yes), `${judgment.name} makes no FAIL on ${JSON.stringify(holding)}: ${JSON.stringify(yes.claims)}`);
}

// -- The three judgments that decide the most: executions of a race, an expired offer's end, the polling of a 202. --

test('a race whose answers carry two trade ids: FAIL on 3.1 (no answer to rest on), as the inline call made it, and judged again the same', () => {
  const meta: Meta = { severity: 'MUST', requirements: ['OFFER-SINGLE-EXECUTION-ATOMIC'] };
  const input: RaceExecutions = {
    offerId: 'offer-12345678-abcd',
    when: 'at 10:00:00',
    statuses: [200, 200, 409],
    answered: [
      { status: 200, tradeId: 'trade-1-aaaaaaaa' },
      { status: 200, tradeId: 'trade-2-bbbbbbbb' },
    ],
  };
  const live = sameAsInline(meta, {}, raceExecutions, input, (check) =>
    check.fail(`2 of 3 simultaneous accepts of offer offer-12… at 10:00:00 were answered 200, 200, 409: the offer was executed 2 times (trade ids trade-1-…, trade-2-…); at most one execution may happen`, {
      statuses: [200, 200, 409],
      tradeIds: ['trade-1-aaaaaaaa', 'trade-2-bbbbbbbb'],
    }),
  );
  assert.equal(live.verdict, 'FAIL');
  assert.equal(live.basis?.clause, '3.1');
});

test('a race with one trade and answers without one: the offer status decides; a second trade there FAILs, the same one is a replay', () => {
  const answered = [
    { status: 200, tradeId: 't-1' },
    { status: 202, tradeId: null },
  ];
  assert.equal(needsStatusTrade(answered), true);
  const race = { offerId: 'o-1', when: 'at 10:00:00', statuses: [200, 202, 409], answered };
  failsAndHolds(raceExecutions, { ...race, statusTradeId: 't-2' }, { ...race, statusTradeId: 't-1' });
  assert.match(said(raceExecutions, { ...race, statusTradeId: 't-1' }).claims[0]!.message, /^idempotent replay: .*judged by the offer status, which shows trade t-1/);
  // Not shown (no tradeId key, or none yet): nothing to count, a REVIEW.
  assert.deepEqual(said(raceExecutions, { ...race, statusTradeId: null }).claims.map((c) => c.level), ['REVIEW']);
});

test('an expired offer answered 202 that then executed: FAIL on the declared validity, resting on the status answer, as inline; judged again the same', () => {
  const meta: Meta = { severity: 'MUST', requirements: ['OFFER-VALIDITY-PERIOD'] };
  const what = 'accept of offer offer-1 (recipe expiringSlow) at 10:00:03, 2750 ms after its create answer';
  const input: Expired202End = {
    what,
    recipe: 'expiringSlow',
    validityKey: 'trading.offerRecipes.expiringSlow.expiresAfterSeconds',
    declaredValue: 1,
    expiresAfterSeconds: 1,
    accept: { status: 202, exchange: 3 },
    elapsedMs: 2_100,
    last: { summary: 'status accepted (HTTP 200)', status: 'accepted', httpStatus: 200, exchange: 9 },
    tradeId: 'trade-1',
  };
  const live = sameAsInline(meta, { 3: 202, 9: 200 }, expiredOffer202End, input, (check) =>
    check.failDeclared(
      'trading.offerRecipes.expiringSlow.expiresAfterSeconds',
      `${what} was answered 202 (received, still processing) and then executed: 2.1 s later its status shows status accepted (HTTP 200) with trade trade-1, although the profile declares such offers expire after 1 s`,
      { expected: 'a refusal, or an end without a trade', actual: { accept: 202, status: 'accepted', tradeId: 'trade-1' }, recipe: 'expiringSlow', accept: 3, exchange: 9 },
    ),
  );
  assert.equal(live.verdict, 'FAIL');
  assert.equal(live.basis?.kind, 'profile-declared');
  assert.equal(live.basis?.kind === 'profile-declared' && live.basis.declaredValue, 1);
  // Ended without a trade: a refusal made while processing, no FAIL.
  failsAndHolds(expiredOffer202End, input, { ...input, tradeId: null, last: { summary: 'status rejected (HTTP 200)', status: 'rejected', httpStatus: 200, exchange: 9 } });
});

const polled: OfferPolled = {
  offerId: 'offer-1',
  terminalStatuses: ['accepted', 'rejected'],
  deadlineMs: 10_000,
  declaredDeadline: 10_000,
  declaredExpectStatus: [200],
  reached: true,
  stopped: false,
  answeredAtDeadline: false,
  polls: 4,
  elapsedMs: 1_234.5,
  last: { summary: 'status accepted (HTTP 200)', status: 'accepted', httpStatus: 200, exchange: 12 },
};

test('an offer not terminal at the declared poll deadline: late, a FAIL on trading.pollDeadlineMs, as check.late made it; judged again the same', () => {
  const meta: Meta = { severity: 'MUST', requirements: ['OFFER-202-STATUS-TERMINAL'] };
  const late: OfferPolled = { ...polled, reached: false, answeredAtDeadline: true, elapsedMs: 10_050.7, last: { summary: 'status in_progress (HTTP 200)', status: 'in_progress', httpStatus: 200, exchange: 12 } };
  const live = sameAsInline(meta, { 12: 200 }, offerReachesTerminalStatus, late, (check) =>
    check.late(
      'offer offer-1 did not reach a terminal status (trading.terminalStatuses: accepted, rejected) within the declared 10.0 s of its 202: 4 polls, last status in_progress (HTTP 200)',
      { waitedMs: 10_051, declaredBy: 'trading.pollDeadlineMs' },
      { polls: 4, deadlineMs: 10_000, lastStatus: 'in_progress' },
    ),
  );
  assert.equal(live.verdict, 'FAIL');
  assert.equal(live.basis?.kind === 'profile-declared' && live.basis.profileKey, 'trading.pollDeadlineMs');
  failsAndHolds(offerReachesTerminalStatus, late, polled);
  // No answer at or after the deadline: not observed, never late.
  assert.deepEqual(said(offerReachesTerminalStatus, { ...late, answeredAtDeadline: false }).claims.map((c) => c.level), ['ERROR']);
});

test('a status operation answering a code its declaration rules out: a FAIL on trading.offerStatus.expectStatus resting on that answer, as inline', () => {
  const meta: Meta = { severity: 'MUST', requirements: ['OFFER-202-STATUS-TERMINAL'] };
  const stopped: OfferPolled = { ...polled, reached: false, stopped: true, polls: 2, elapsedMs: 300, last: { summary: 'HTTP 404, status not read', httpStatus: 404, exchange: 5 } };
  const live = sameAsInline(meta, { 5: 404 }, offerReachesTerminalStatus, stopped, (check) =>
    check.failDeclared(
      'trading.offerStatus.expectStatus',
      'the offer-status operation answered 404 for offer offer-1 0.3 s after its 202 (poll 2), before any terminal status; the profile declares it answers 200',
      { expected: [200], actual: 404, exchange: 5, polls: 2 },
    ),
  );
  assert.equal(live.verdict, 'FAIL');
  assert.equal(live.basis?.kind === 'profile-declared' && live.basis.profileKey, 'trading.offerStatus.expectStatus');
  assert.match(said(offerReachesTerminalStatus, polled).claims[0]!.message, /^offer offer-1 reached accepted after 4 polls in 1\.2 s$/);
});

// -- The other judgments: same claims as inline where they rest on an answer, FAIL and hold, JSON round trip. --

test('a fast offer answered 202: FAIL on the recipe the profile declares, as inline; a 200 holds it', () => {
  const meta: Meta = { severity: 'MUST', requirements: ['OFFER-200-WITHIN-PREDEFINED-TIME'] };
  const input: FastOfferAnswer = {
    offerId: 'offer-1',
    recipe: { name: 'fast', declaredBy: 'trading.offerRecipes.fast', label: 'recipe fast' },
    status: 202,
    processingTimeMs: 500,
    declaredValue: trading.offerRecipes.fast,
    exchange: 4,
  };
  sameAsInline(meta, { 4: 202 }, fastOfferAnswered200, input, (check) =>
    check.failDeclared(
      'trading.offerRecipes.fast',
      'accept of offer offer-1 (recipe fast), which the profile declares to finish processing within the predefined time; predefined time 500 ms, answered 202 instead of 200 with the trade',
      { expected: 200, actual: 202, recipe: 'fast', exchange: 4 },
    ),
  );
  failsAndHolds(fastOfferAnswered200, input, { ...input, status: 200 });
  failsAndHolds(fastOfferAnswered200, { ...input, processingTimeMs: null }, { ...input, processingTimeMs: null, status: 200 });
});

test('a slow offer answered 200: FAIL on the recipe, as inline; a 202 holds it', () => {
  const meta: Meta = { severity: 'MUST', requirements: ['OFFER-202-WHEN-SLOW'] };
  const input: SlowOfferAnswer = {
    offerId: 'offer-1',
    recipe: { name: 'slow', declaredBy: 'trading.offerRecipes.slow', label: 'recipe slow' },
    status: 200,
    durationMs: 2004,
    declaredValue: trading.offerRecipes.slow,
    exchange: 4,
  };
  sameAsInline(meta, { 4: 200 }, slowOfferAnswered202, input, (check) =>
    check.failDeclared(
      'trading.offerRecipes.slow',
      'accept of offer offer-1 (recipe slow), which the profile declares to outlast the predefined time, answered 200 after 2004 ms: it waited for processing instead of answering 202',
      { expected: 202, actual: 200, durationMs: 2004, recipe: 'slow', exchange: 4 },
    ),
  );
  failsAndHolds(slowOfferAnswered202, input, { ...input, status: 202 });
});

test('a 200 without the trade in data: FAIL on 3.1\'s accepted row, as inline; an object holds it, a 202 is not judged', () => {
  const meta: Meta = { severity: 'MUST', requirements: ['OFFER-ACCEPT-RESULT'] };
  const input: AcceptAnswerData = { offerId: 'offer-1', status: 200, dataKind: dataKindOf({ data: null }), exchange: 2 };
  assert.equal(input.dataKind, 'null');
  sameAsInline(meta, { 2: 200 }, acceptedAnswerCarriesTrade, input, (check) =>
    check.fail('accept of offer offer-1 answered 200 without the accepted trade in data', { exchange: 2 }, { on: 'SPEC-3-1-ACCEPTED-ROW' }),
  );
  failsAndHolds(acceptedAnswerCarriesTrade, input, { ...input, dataKind: dataKindOf({ data: { trade_id: 't' } }) });
  failsAndHolds(acceptedAnswerCarriesTrade, { ...input, dataKind: dataKindOf(undefined) }, { ...input, status: 202, dataKind: 'absent' });
  failsAndHolds(acceptedAnswerCarriesTrade, { ...input, dataKind: dataKindOf({ data: 'trade' }) }, { ...input, dataKind: dataKindOf({ data: [] }) });
});

test('an accept answer that is no JSON: FAIL on section 1, as inline; a parsed body holds it', () => {
  const meta: Meta = { severity: 'MUST', requirements: ['OFFER-JSON-BODY'] };
  const input: AcceptAnswerBody = { offerId: 'offer-1', status: 200, jsonError: 'not JSON: Unexpected token <', exchange: 6 };
  sameAsInline(meta, { 6: 200 }, acceptAnswerIsJson, input, (check) =>
    check.fail('the 200 answer to accept of offer offer-1 is not JSON: not JSON: Unexpected token <', { exchange: 6 }, { on: 'SPEC-1-JSON' }),
  );
  failsAndHolds(acceptAnswerIsJson, input, { ...input, jsonError: null });
});

test('an accept with external_transaction_id refused: FAIL, as inline; a 202 holds it; what the status reports is a note or a REVIEW', () => {
  const meta: Meta = { severity: 'MUST', requirements: ['OFFER-EXTERNAL-TRANSACTION-ID'] };
  const input: AcceptWithExternalId = { offerId: 'offer-1', externalTransactionId: 'ext-1', clock: '10:00:00', status: 422, exchange: 3 };
  sameAsInline(meta, { 3: 422 }, acceptWithExternalTransactionId, input, (check) =>
    check.fail('accept of offer offer-1 with external_transaction_id=ext-1 at 10:00:00 was refused: 422', { expected: [200, 202], actual: 422, exchange: 3 }),
  );
  failsAndHolds(acceptWithExternalTransactionId, input, { ...input, status: 202 });
  assert.deepEqual(said(externalTransactionIdReported, { sent: 'ext-1', reported: 'ext-1' }).claims.map((c) => c.level), ['INFO']);
  assert.deepEqual(said(externalTransactionIdReported, { sent: 'ext-1', reported: 'other' }).claims.map((c) => c.level), ['REVIEW']);
  // Nothing reported: the key is absent, and stays so through JSON.
  assert.equal(said(externalTransactionIdReported, { sent: 'ext-1' }).claims[0]!.message, 'the offer status reports external_transaction_id undefined, not the ext-1 sent with the accept');
});

test('an accept with the body {} answered 500: FAIL; answered 503 (transient): ERROR, as inline; a 200 or a 400 is a REVIEW', () => {
  const meta: Meta = { severity: 'REVIEW', requirements: ['OFFER-ACCEPT-BODY-NOT-SHOWN'] };
  const input: AcceptWithBody = { offerId: 'offer-1', clock: '10:00:00', status: 503, exchange: 8 };
  const live = sameAsInline(meta, { 8: 503 }, acceptWithBody, input, (check) =>
    check.fail('accept at 10:00:00 of the newest offer offer-1 with the body {} caused a server error: 503', { expected: 'an answer of 4.4 (200/202, or a 4xx refusal)', actual: 503, exchange: 8 }),
  );
  assert.equal(live.verdict, 'ERROR', 'a transient answer decides nothing');
  failsAndHolds(acceptWithBody, { ...input, status: 500 }, { ...input, status: 200 });
  assert.deepEqual(said(acceptWithBody, { ...input, status: 400 }).claims.map((c) => c.level), ['REVIEW']);
});

test('a second accept that made a second trade: FAIL (resting on the effect), as inline; the same trade is a replay, none to compare a REVIEW', () => {
  const meta: Meta = { severity: 'MUST', requirements: ['OFFER-SINGLE-EXECUTION'] };
  const input: SecondAccept = { offerId: 'offer-1', clock: '10:00:01', firstStatus: 200, secondStatus: 200, firstTradeId: 'trade-1', secondTradeId: 'trade-2' };
  sameAsInline(meta, {}, secondAcceptExecutesNothing, input, (check) =>
    check.fail('second accept of offer offer-1 at 10:00:01 answered 200 and executed the offer again: trade trade-2, after trade trade-1 of the first accept', {
      expected: 'a refusal, or the same trade trade-1 again',
      actual: { status: 200, tradeId: 'trade-2' },
      firstTradeId: 'trade-1',
    }),
  );
  failsAndHolds(secondAcceptExecutesNothing, input, { ...input, secondTradeId: 'trade-1' });
  failsAndHolds(secondAcceptExecutesNothing, { ...input, secondStatus: 500 }, { ...input, secondStatus: 500, secondTradeId: 'trade-1' });
  assert.deepEqual(said(secondAcceptExecutesNothing, { ...input, secondTradeId: null }).claims.map((c) => c.level), ['REVIEW']);
  // A server error is the server-error rule's (applied next by the check): nothing said here.
  assert.deepEqual(said(secondAcceptExecutesNothing, { ...input, secondStatus: 502, secondTradeId: null }).claims, []);
});

test('no accept of a race answered: refusals only FAIL on section 1 resting on the first refusal\'s answer, as inline; a loser\'s 5xx is at most a WARN', () => {
  const meta: Meta = { severity: 'MUST', requirements: ['OFFER-SINGLE-EXECUTION-ATOMIC'] };
  const input: RaceAnswers = { offerId: 'offer-1', when: 'at 10:00:00', answers: [{ status: 503, exchange: 1 }, { status: 409, exchange: 2 }, { status: 409, exchange: 3 }] };
  sameAsInline(meta, { 1: 503, 2: 409, 3: 409 }, raceNoneAccepted, input, (check) =>
    check.fail('none of 3 simultaneous accepts of the newest offer offer-1 at 10:00:00 was accepted (503, 409, 409)', { statuses: [503, 409, 409], exchange: 2 }, { on: 'SPEC-1-ACCEPT-OFFER' }),
  );
  const broken: RaceAnswers = { ...input, answers: [{ status: 500, exchange: 1 }, ...input.answers.slice(1)] };
  failsAndHolds(raceNoneAccepted, input, broken);
  assert.deepEqual(said(raceNoneAccepted, broken).claims.map((c) => c.level), ['WARN', 'REVIEW']);
  // Transient answers only: the round exercised nothing.
  assert.deepEqual(said(raceNoneAccepted, { ...input, answers: [{ status: 503, exchange: 1 }, { status: 429, exchange: 2 }] }).claims, []);
  const losers = said(raceLosers, { ...input, answers: [{ status: 200, exchange: 1 }, { status: 500, exchange: 2 }, { status: 503, exchange: 3 }] });
  assert.deepEqual(losers.claims.map((c) => [c.level, c.observed]), [['WARN', { kind: 'race-loser', status: 500 }]]);
  assert.equal(losers.ends, false);
});

test('an expired offer accepted outright: FAIL on the declared validity, as inline; a refusal holds it, a 202 is left to where the offer ends', () => {
  const meta: Meta = { severity: 'MUST', requirements: ['OFFER-VALIDITY-PERIOD'] };
  const input: ExpiredOfferAnswer = {
    what: 'accept of offer offer-1 (recipe expiringSlow) at 10:00:03',
    recipe: 'expiringSlow',
    validityKey: 'trading.offerRecipes.expiringSlow.expiresAfterSeconds',
    declaredValue: 1,
    expiresAfterSeconds: 1,
    status: 200,
    exchange: 7,
  };
  sameAsInline(meta, { 7: 200 }, expiredOfferNotAccepted, input, (check) =>
    check.failDeclared('trading.offerRecipes.expiringSlow.expiresAfterSeconds', 'accept of offer offer-1 (recipe expiringSlow) at 10:00:03 was accepted (200), although the profile declares such offers expire after 1 s', {
      expected: 'a 4xx refusal',
      actual: 200,
      recipe: 'expiringSlow',
      exchange: 7,
    }),
  );
  failsAndHolds(expiredOfferNotAccepted, input, { ...input, status: 410 });
  assert.deepEqual(said(expiredOfferNotAccepted, { ...input, status: 202 }).claims, []);
});
