// load/stage/probe-judgment.ts: a load probe's check is judged from what it
// measured, not from the claims its record shows: the analysis is made again
// from a staircase's steps and criteria, or the 413 probe's sizes and range,
// live and offline alike, keeping nothing of the run an analysis does not read;
// the read-back of rate-limited accepts from the offers read back and the
// control offer, and the 429 headers check from the headers it read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CheckRecord } from '../../src/check/model.ts';
import { RATE_LIMIT_HEADERS, RATE_LIMITED_ACCEPT_NOT_EXECUTED, TOKEN_BODY_SIZE_LIMIT, TOKEN_RATE_LIMIT } from '../../load/checks.ts';
import type { NotExecutedMeasurements } from '../../load/stage/not-executed-judgment.ts';
import type { RetryAdviceMeasurements } from '../../load/stage/retry-advice-judgment.ts';
import type { SizeProbeStep } from '../../src/results/load-model.ts';
import { judgeProbeRecord, sizeMeasurements, staircaseMeasurements } from '../../load/stage/probe-judgment.ts';
import { emptyAnswers, RESULT_FORMAT, type NormalizedRun, type PhaseResult } from '../../load/result/normalized.ts';
import type { Outcome } from '../../load/scenarios/metrics.ts';

function phase(name: string, offeredRps: number, answers: Partial<Record<Outcome, number>>, role = 'climb'): PhaseResult {
  const all = { ...emptyAnswers(), ...answers };
  const sent = Object.values(all).reduce((a, b) => a + b, 0);
  return { name, tags: { role }, offeredRps, startSec: 0, durationSec: 1, sent, dropped: 0, answers: all, statusCounts: {}, latency: {}, achievedRps: sent };
}

/** L = 200 with a burst of 50, then recovery: the staircase of analysis.test.ts's first case. */
const staircase: NormalizedRun = {
  format: RESULT_FORMAT,
  version: 1,
  engine: 'embedded',
  scenario: 'token-rate-breakpoint',
  startedAt: '2026-11-29T00:00:00.000Z',
  durationMs: 4000,
  phases: [phase('s1', 100, { '2xx': 100 }), phase('s2', 300, { '2xx': 250, '429': 50 }), phase('s3', 450, { '2xx': 200, '429': 250 }), phase('r', 160, { '2xx': 160 }, 'recovery')],
  thresholds: [],
  timeSeries: [{ tSec: 0, offered: 1, sent: 1, status2xx: 1, status429: 0, status5xx: 0, other: 0, p95Ms: 1 }],
  headerSamples: [{ phase: 's2', status: 429, headers: { 'retry-after': '1' } }],
  errorSamples: [],
  generator: { saturated: false },
};

test('the measurements kept are what the analysis reads, nothing else of the run', () => {
  const kept = staircaseMeasurements(staircase, { capRps: 800 });
  const run = (kept as { run: NormalizedRun }).run;
  assert.deepEqual(run.phases, staircase.phases);
  assert.deepEqual([run.timeSeries, run.headerSamples, run.errorSamples], [[], [], undefined], 'no time series, header value or exchange');
});

test('the verdict comes from the measurements: a record whose claims say FAIL is judged PASS when its staircase shows the limit', () => {
  const record: CheckRecord = {
    claims: [{ level: 'FAIL', message: 'a claim its measurements do not bear out', rests: { kind: 'sentence' } }],
    analysis: staircaseMeasurements(staircase, { capRps: 800, expectedRps: 200 }),
  };
  const judged = judgeProbeRecord(TOKEN_RATE_LIMIT, record);
  assert.equal(judged.verdict, 'PASS', judged.reason);
  assert.match(judged.reason!, /estimated limit 200 req\/s/);
});

test('the same staircase held to another declared limit is judged by it: the criteria are part of what was recorded', () => {
  // No 429 up to 400 req/s, where the profile documents 100: a profile-declared FAIL.
  const blind: NormalizedRun = { ...staircase, phases: [phase('s1', 100, { '2xx': 100 }), phase('s2', 250, { '2xx': 250 }), phase('s3', 400, { '2xx': 400 })] };
  const judged = judgeProbeRecord(TOKEN_RATE_LIMIT, { claims: [], analysis: staircaseMeasurements(blind, { capRps: 400, expectedRps: 100, expectedRpsKey: 'load.tokenRateLimit.expectedRps' }) });
  assert.equal(judged.verdict, 'FAIL', judged.reason);
  assert.equal(judged.basis?.kind, 'profile-declared');
  assert.equal(judged.basis?.profileKey, 'load.tokenRateLimit.expectedRps');
});

test('a staircase climbed again because its generator fell behind: judged offline from its last climb, each earlier one noted, REVIEW naming the shortfall', () => {
  // No 429 up to 450 req/s where the profile documents 200; the generator started 392 of 450 arrivals (a starved machine), as in every climb.
  const starved = { ...phase('s3', 450, { '2xx': 392 }), dropped: 58, late: 58 };
  const last: NormalizedRun = { ...staircase, phases: [phase('s1', 100, { '2xx': 100 }), phase('s2', 230, { '2xx': 230 }), starved] };
  const criteria = { capRps: 800, expectedRps: 200, expectedRpsKey: 'load.tokenRateLimit.expectedRps' };
  const judged = judgeProbeRecord(TOKEN_RATE_LIMIT, { claims: [], analysis: staircaseMeasurements(last, criteria, [last.phases, last.phases]) });
  assert.equal(judged.verdict, 'REVIEW', judged.reason);
  assert.match(judged.reason!, /^INCONCLUSIVE: .*the generator did not hold its plan \(at 450 req\/s 392 of 450 planned started, 58 dropped, 58 of them late\)/);
  const notes = judged.findings.filter((f) => /^climb \d drew no 429 while the generator did not hold its plan/.test(f.message));
  assert.deepEqual(notes.map((f) => [f.level, f.message.slice(0, 7)]), [['INFO', 'climb 1'], ['INFO', 'climb 2']]);
});

test('the 413 probe judged from the sizes it tried: its boundary, the limit the profile documents, and what it cost noted', () => {
  const step = (sizeBytes: number, status: number, purpose: SizeProbeStep['purpose'] = 'bisection'): SizeProbeStep => ({ sizeBytes, framing: 'content-length', purpose, outcome: status === 413 ? '413' : 'accepted', status, durationMs: 3 });
  const steps = [step(65_536, 413, 'upper bound'), step(16_384, 200), step(16_385, 413)];
  const cost = { requests: 40, requestBudget: 30, rateLimitedRetries: 2 };
  const judged = judgeProbeRecord(TOKEN_BODY_SIZE_LIMIT, { claims: [], analysis: sizeMeasurements(steps, { maxBytes: 65_536, minBytes: 1_024 }, cost) });
  assert.equal(judged.verdict, 'PASS', judged.reason);
  assert.match(judged.reason!, /16385/);
  assert.deepEqual(judged.findings.filter((f) => f.level === 'INFO').map((f) => f.message), [
    'the probe needed 40 requests, over its budget of 30',
    "2 probe(s) were answered 429, or a gateway's 502, 503 or 504, and repeated after Retry-After",
  ]);
  // Held to a documented limit well below the boundary it found: the profile's declaration decides.
  const declared = judgeProbeRecord(TOKEN_BODY_SIZE_LIMIT, { claims: [], analysis: sizeMeasurements(steps, { maxBytes: 65_536, minBytes: 1_024, expectedLimitBytes: 4_096 }, cost) });
  assert.notEqual(declared.verdict, 'PASS', 'a boundary four times the documented limit');
});

test('a rate-limited accept judged from what was read back: the control offer decides what execution looks like', () => {
  const measured = (over: Partial<NotExecutedMeasurements>): NotExecutedMeasurements => ({
    kind: 'accept-not-executed',
    captured: 2,
    reads: [
      { offerId: 'o-1', status: 'superseded' },
      { offerId: 'o-2', status: 'accepted' },
    ],
    control: { reached: true, createdStatus: 'offered', bystanderStatus: 'superseded', status: 'accepted' },
    extractsTradeId: false,
    ...over,
  });
  // The claims say PASS; one refused offer reads back as the control did when accepted: executed.
  const executed = judgeProbeRecord(RATE_LIMITED_ACCEPT_NOT_EXECUTED, { claims: [], measured: 'a claim the reads do not bear out', analysis: measured({}) });
  assert.equal(executed.verdict, 'FAIL', executed.reason);
  assert.equal(executed.basis?.clause, '4.4 rule 3', 'the sentence it rests on: an accept answered 429 was not processed');
  assert.match(executed.reason!, /1 of 2 offers whose accept was answered 429 were executed anyway/);
  // The same reads, where an accepted offer ends as an unaccepted one does: execution cannot be told, REVIEW.
  const blind = judgeProbeRecord(RATE_LIMITED_ACCEPT_NOT_EXECUTED, { claims: [], analysis: measured({ control: { reached: true, createdStatus: 'offered', bystanderStatus: 'accepted', status: 'accepted' } }) });
  assert.equal(blind.verdict, 'REVIEW', blind.reason);
  // Nothing refused during the staircase: nothing to read back.
  assert.equal(judgeProbeRecord(RATE_LIMITED_ACCEPT_NOT_EXECUTED, { claims: [], analysis: measured({ captured: 0, reads: [] }) }).verdict, 'REVIEW');
});

test('the 429 headers check judged from the headers it read and the limit each staircase measured', () => {
  const measured = (advertised: string): RetryAdviceMeasurements => ({
    kind: 'retry-advice',
    probes: [
      { operation: 'token', ran: true, sample: { status: 429, headers: { 'retry-after': '1', 'ratelimit-policy': `"default";q=${advertised};w=1`, ratelimit: '"default";r=0;t=1' } }, estimatedLimitRps: 200 },
      { operation: 'accept', ran: false, skipped: 'accept: not configured' },
    ],
  });
  const agrees = judgeProbeRecord(RATE_LIMIT_HEADERS, { claims: [], analysis: measured('200') });
  assert.equal(agrees.verdict, 'REVIEW');
  assert.match(agrees.reason!, /^429 answers carry token: Retry-After 1 s/);
  const levels = (j: typeof agrees) => j.findings.filter((f) => /advertised quota/.test(f.message)).map((f) => f.level);
  assert.deepEqual(levels(agrees), ['INFO']);
  assert.deepEqual(levels(judgeProbeRecord(RATE_LIMIT_HEADERS, { claims: [], analysis: measured('50') })), ['WARN'], 'a quota a quarter of the measured limit');
  const none = judgeProbeRecord(RATE_LIMIT_HEADERS, { claims: [], analysis: { kind: 'retry-advice', probes: [{ operation: 'token', ran: true }] } });
  assert.equal(none.verdict, 'SKIP');
  assert.equal(none.reason, 'no 429 to read: token: no 429 was answered');
});
