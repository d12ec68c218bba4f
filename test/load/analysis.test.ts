// The shared analysis on hand-made results: the same verdicts whichever
// engine produced the numbers. Synthetic runs pin each rule to one cause.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeRateLimit, timelineEstimate } from '../../load/probes/rate-limit/analysis.ts';
import { analyzeRetryAdvice, parseRetryAfter } from '../../load/probes/rate-limit/headers.ts';
import { judgeBodySize } from '../../load/probes/body-size/analysis.ts';
import { emptyAnswers, RESULT_FORMAT, type NormalizedRun, type PhaseResult } from '../../load/result/normalized.ts';
import type { Outcome } from '../../load/scenarios/metrics.ts';
import type { SizeProbeStep } from '../../src/results/load-model.ts';

function phase(name: string, offeredRps: number, durationSec: number, answers: Partial<Record<Outcome, number>>, role = 'climb'): PhaseResult {
  const all = { ...emptyAnswers(), ...answers };
  const sent = Object.values(all).reduce((a, b) => a + b, 0);
  return { name, tags: { role }, offeredRps, startSec: 0, durationSec, sent, dropped: 0, answers: all, statusCounts: {}, latency: {}, achievedRps: sent / durationSec };
}

function run(phases: PhaseResult[], extra: Partial<NormalizedRun> = {}): NormalizedRun {
  return { format: RESULT_FORMAT, version: 1, engine: 'k6', scenario: 't', startedAt: new Date().toISOString(), durationMs: 0, phases, thresholds: [], timeSeries: [], headerSamples: [], generator: { saturated: false }, ...extra };
}

test('the limit is the accepted rate of the steps after the onset, not of the onset step', () => {
  // L = 200, B = 50: the onset step lets the burst through on top of L.
  const a = analyzeRateLimit(
    run([phase('s1', 100, 1, { '2xx': 100 }), phase('s2', 300, 1, { '2xx': 250, '429': 50 }), phase('s3', 450, 1, { '2xx': 200, '429': 250 }), phase('r', 160, 1, { '2xx': 160 }, 'recovery')]),
    { capRps: 800, expectedRps: 200 },
  );
  assert.equal(a.verdict, 'PASS');
  assert.equal(a.onsetRps, 300);
  assert.equal(a.estimatedLimitRps, 200);
  assert.equal(a.estimatedBurst, 50);
  assert.equal(a.estimateMethod, 'plateau-steps');
  assert.equal(a.recovered, true);
});

test('the completion timeline is preferred: admitted answers per second while 429s keep coming', () => {
  const slots = 300; // 3 s of 10 ms slots; drained from 1 s on at L = 100 (one admitted per 10 ms slot).
  const admitted = Array.from({ length: slots }, (_, i) => (i < 100 ? 2 : 1));
  const limited = Array.from({ length: slots }, (_, i) => (i < 100 ? 0 : 3));
  const estimate = timelineEstimate({ resolutionMs: 10, admitted, limited });
  assert.ok(estimate && Math.abs(estimate.rps - 100) < 0.5, JSON.stringify(estimate));
  // An isolated 429 (a stall burst) is not a drained window.
  const stray = limited.map((v, i) => (i === 50 ? 1 : v));
  assert.ok(Math.abs(timelineEstimate({ resolutionMs: 10, admitted, limited: stray })!.rps - 100) < 0.5);
});

test('no 429 up to the cap is FAIL; with the cap below the expected limit it is INCONCLUSIVE', () => {
  const phases = [phase('s1', 200, 1, { '2xx': 200 }), phase('s2', 400, 1, { '2xx': 400 }), phase('s3', 400, 1, { '2xx': 400 })];
  const fail = analyzeRateLimit(run(phases), { capRps: 400 });
  assert.equal(fail.verdict, 'FAIL');
  assert.match(fail.reason, /no 429 up to the cap/);
  assert.equal(analyzeRateLimit(run(phases), { capRps: 400, expectedRps: 500 }).verdict, 'INCONCLUSIVE');
  assert.equal(analyzeRateLimit(run(phases.slice(0, 1)), { capRps: 400 }).verdict, 'INCONCLUSIVE', 'the climb never reached the cap');
});

test('5xx or dropped connections under overload FAIL, whatever else the limiter does', () => {
  const with503 = analyzeRateLimit(run([phase('s1', 100, 1, { '2xx': 100 }), phase('s2', 300, 1, { '2xx': 200, '5xx': 100 })]), { capRps: 300 });
  assert.equal(with503.verdict, 'FAIL');
  assert.match(with503.reason, /server errors or dropped connections/);
  const resets = analyzeRateLimit(run([phase('s1', 300, 1, { '2xx': 200, '429': 90, transport: 10 }), phase('s2', 300, 1, { '2xx': 200, '429': 100 })]), { capRps: 300 });
  assert.equal(resets.verdict, 'FAIL', '1.7 % transport failures is above the 1 % tolerated');
});

test('429s far below the limit, a collapse under overload and no recovery are warnings', () => {
  const a = analyzeRateLimit(
    run([phase('s1', 50, 1, { '2xx': 45, '429': 5 }), phase('s2', 300, 1, { '2xx': 200, '429': 100 }), phase('s3', 450, 1, { '2xx': 100, '429': 350 }), phase('r', 80, 1, { '2xx': 40, '429': 40 }, 'recovery')]),
    { capRps: 450 },
  );
  assert.equal(a.verdict, 'PASS');
  const warnings = a.findings.filter((f) => f.level === 'WARN').map((f) => f.message).join(' | ');
  assert.match(warnings, /well below the estimated limit/);
  assert.equal(a.recovered, false);
  assert.match(warnings, /still refused/);
});

test('Retry-After: delta-seconds or HTTP-date; nonsense is a problem', () => {
  assert.equal(parseRetryAfter('3'), 3);
  assert.equal(parseRetryAfter('Sun, 06 Nov 1994 08:49:42 GMT', 'Sun, 06 Nov 1994 08:49:37 GMT'), 5);
  assert.equal(parseRetryAfter('soon'), undefined);
  assert.match(analyzeRetryAdvice({ 'retry-after': 'soon' }).problems.join(), /neither delta-seconds nor an HTTP-date/);
});

test('three generations of rate-limit fields are parsed and checked for consistency', () => {
  const structured = analyzeRetryAdvice({ 'retry-after': '1', 'ratelimit-policy': '"token";q=200;w=1', ratelimit: '"token";r=0;t=1' });
  assert.deepEqual(structured.problems, []);
  assert.deepEqual(structured.generation, ['structured']);
  assert.equal(structured.fields['policy token q'], 200);
  const contradicting = analyzeRetryAdvice({ 'ratelimit-policy': '"token";q=10;w=1', ratelimit: '"token";r=25;t=1' });
  assert.match(contradicting.problems.join(' | '), /25 remaining, more than its quota of 10/);
  assert.match(contradicting.problems.join(' | '), /a 429 says 25 requests remain/);
  const draft = analyzeRetryAdvice({ 'ratelimit-limit': '100', 'ratelimit-remaining': '0', 'ratelimit-reset': '5' });
  assert.deepEqual(draft.generation, ['draft-fields']);
  assert.deepEqual(draft.problems, []);
  const draft7 = analyzeRetryAdvice({ ratelimit: 'limit=100, remaining=0, reset=5' });
  assert.deepEqual(draft7.generation, ['draft-fields']);
  assert.equal(draft7.fields['RateLimit-Limit'], 100);
  const legacy = analyzeRetryAdvice({ 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '61', 'x-ratelimit-reset': String(Math.round(Date.now() / 1000) + 30) });
  assert.deepEqual(legacy.generation, ['x-ratelimit']);
  assert.match(legacy.problems.join(), /exceeds X-RateLimit-Limit/);
  assert.match(analyzeRetryAdvice({ 'ratelimit-policy': 'q=', ratelimit: '' }).problems.join(), /not valid structured fields/);
});

const step = (sizeBytes: number, outcome: SizeProbeStep['outcome'], purpose: string, framing: SizeProbeStep['framing'] = 'content-length', status?: number): SizeProbeStep => ({
  sizeBytes,
  framing,
  outcome,
  status: status ?? (outcome === '413' ? 413 : outcome === 'accepted' ? 200 : undefined),
  durationMs: 1,
  purpose,
});

test('413 boundary: readable 413 just above the limit under every framing is PASS', () => {
  const steps = [step(4096, '413', 'upper bound'), step(100, 'accepted', 'lower bound'), step(1000, 'accepted', 'bisection'), step(1001, '413', 'bisection'), step(1000, 'accepted', 'boundary', 'chunked'), step(1001, '413', 'boundary', 'chunked'), step(1001, '413', 'boundary', 'expect-100-continue')];
  const j = judgeBodySize(steps, { maxBytes: 4096, minBytes: 100 });
  assert.equal(j.verdict, 'PASS');
  assert.equal(j.largestAcceptedBytes, 1000);
  assert.equal(j.smallestRejectedBytes, 1001);
});

test('413 boundary: a bare reset, a chunked bypass, a 5xx or no limit at all FAIL', () => {
  const base = [step(4096, 'reset', 'upper bound'), step(100, 'accepted', 'lower bound'), step(1000, 'accepted', 'bisection')];
  const reset = judgeBodySize([...base, step(1001, 'reset', 'bisection'), step(1001, 'reset', 'boundary retry', 'expect-100-continue')], { maxBytes: 4096, minBytes: 100 });
  assert.equal(reset.verdict, 'FAIL');
  assert.match(reset.reason, /closed without a status/);
  const chunked = judgeBodySize([...base, step(1001, '413', 'bisection'), step(1001, 'accepted', 'boundary', 'chunked')], { maxBytes: 4096, minBytes: 100 });
  assert.match(chunked.reason, /not applied to chunked bodies/);
  const serverError = judgeBodySize([step(4096, '5xx', 'upper bound', 'content-length', 500)], { maxBytes: 4096, minBytes: 100 });
  assert.equal(serverError.verdict, 'FAIL');
  const none = judgeBodySize([step(4096, 'accepted', 'upper bound')], { maxBytes: 4096, minBytes: 100 });
  assert.match(none.reason, /no body-size limit/);
  assert.equal(judgeBodySize([step(4096, 'accepted', 'upper bound')], { maxBytes: 4096, minBytes: 100, expectedLimitBytes: 8192 }).verdict, 'INCONCLUSIVE');
});
