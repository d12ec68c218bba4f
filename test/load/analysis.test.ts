// The shared analysis on hand-made results: the same verdicts whichever
// engine produced the numbers. Synthetic runs pin each rule to one cause.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeRateLimit, refillEstimate, timelineEstimate } from '../../load/probes/rate-limit/analysis.ts';
import { advisedWaitSec, analyzeRetryAdvice, parseRetryAfter } from '../../load/probes/rate-limit/headers.ts';
import { judgeBodySize } from '../../load/probes/body-size/analysis.ts';
import { emptyAnswers, RESULT_FORMAT, startedBelowPlan, type NormalizedRun, type PhaseResult } from '../../load/result/normalized.ts';
import type { Outcome } from '../../load/scenarios/metrics.ts';
import type { SizeProbeStep } from '../../src/results/load-model.ts';

function phase(name: string, offeredRps: number, durationSec: number, answers: Partial<Record<Outcome, number>>, role = 'climb', exact: Pick<PhaseResult, 'statusCounts' | 'errors'> | Partial<PhaseResult> = {}): PhaseResult {
  const all = { ...emptyAnswers(), ...answers };
  const sent = Object.values(all).reduce((a, b) => a + b, 0);
  return { name, tags: { role }, offeredRps, startSec: 0, durationSec, sent, dropped: 0, answers: all, statusCounts: {}, latency: {}, achievedRps: sent / durationSec, ...exact };
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

test('no 429 up to the cap is INCONCLUSIVE: the spec does not show the limit (8), so it may be above the cap', () => {
  const phases = [phase('s1', 200, 1, { '2xx': 200 }), phase('s2', 400, 1, { '2xx': 400 }), phase('s3', 400, 1, { '2xx': 400 })];
  const blind = analyzeRateLimit(run(phases), { capRps: 400 });
  assert.equal(blind.verdict, 'INCONCLUSIVE');
  assert.match(blind.reason, /no 429 up to the cap/);
  assert.match(blind.reason, /documents none/);
  assert.equal(blind.declaredBy, undefined);
  assert.equal(analyzeRateLimit(run(phases), { capRps: 400, expectedRps: 500 }).verdict, 'INCONCLUSIVE', 'the cap is below the documented limit');
  assert.equal(analyzeRateLimit(run(phases.slice(0, 1)), { capRps: 400 }).verdict, 'INCONCLUSIVE', 'the climb never reached the cap');
});

test('no 429 well above a limit the profile documents is a profile-declared FAIL', () => {
  const phases = [phase('s1', 50, 0.5, { '2xx': 25 }), phase('s2', 150, 1, { '2xx': 150 }), phase('s3', 225, 1, { '2xx': 225 }), phase('s4', 400, 1, { '2xx': 400 })];
  const key = 'load.tokenRateLimit.expectedRps';
  const fail = analyzeRateLimit(run(phases), { capRps: 400, expectedRps: 100, expectedRpsKey: key, burst: 50 });
  assert.equal(fail.verdict, 'FAIL');
  assert.equal(fail.declaredBy, key);
  assert.match(fail.reason, /no 429 up to the cap: .*documents a limit of 100 req\/s \(load\.tokenRateLimit\.expectedRps\)/);
  // Only just above the documented limit, within the tolerance and the burst: not enough to contradict it.
  const near = [phase('s1', 100, 1, { '2xx': 100 }), phase('s2', 130, 1, { '2xx': 130 })];
  const inconclusive = analyzeRateLimit(run(near), { capRps: 130, expectedRps: 100, expectedRpsKey: key, burst: 50 });
  assert.equal(inconclusive.verdict, 'INCONCLUSIVE');
  assert.match(inconclusive.reason, /not far enough above the 100 req\/s the profile documents/);
});

test('a fixed-window limiter is read from refill to refill, not from the refused tail of each window', () => {
  // L = 200 per 1 s window, 450 req/s offered from 0.5 s: each window admits 200 in its first 0.44 s, then only 429s.
  const slots = 350;
  const admitted = Array.from({ length: slots }, () => 0);
  const limited = Array.from({ length: slots }, () => 0);
  for (let i = 50; i < slots; i++) {
    const inWindow = i % 100;
    const arrivals = i % 2 === 0 ? 5 : 4; // 4.5 per 10 ms slot
    const admittedSoFar = Math.min(200, Math.round(inWindow * 4.5));
    const room = Math.max(0, 200 - admittedSoFar);
    admitted[i] = Math.min(arrivals, room);
    limited[i] = arrivals - admitted[i]!;
  }
  const timeline = { resolutionMs: 10, admitted, limited };
  const stepwise = refillEstimate(timeline);
  assert.ok(stepwise?.rps !== undefined && Math.abs(stepwise.rps - 200) <= 5, JSON.stringify(stepwise));
  assert.ok(Math.abs(stepwise.periodSec! - 1) < 0.05);
  // A token bucket refills continuously: no stepwise reading.
  const bucket = { resolutionMs: 10, admitted: Array.from({ length: 300 }, (_, i) => (i < 100 ? 2 : 1)), limited: Array.from({ length: 300 }, (_, i) => (i < 100 ? 0 : 3)) };
  assert.equal(refillEstimate(bucket), undefined);
  const a = analyzeRateLimit(
    run([phase('s1', 100, 0.5, { '2xx': 50 }), phase('s2', 450, 1, { '2xx': 250, '429': 200 }), phase('s3', 450, 1.5, { '2xx': 300, '429': 375 })], { arrivalTimeline: timeline }),
    { capRps: 800, expectedRps: 200 },
  );
  assert.equal(a.verdict, 'PASS');
  assert.ok(Math.abs(a.estimatedLimitRps! - 200) <= 5, String(a.estimatedLimitRps));
  assert.deepEqual(a.findings.filter((f) => f.level === 'WARN'), []);
});

test('5xx already at the lowest rate are not load being refused: INCONCLUSIVE, not FAIL', () => {
  const broken = analyzeRateLimit(
    run([phase('s1', 100, 1, { '2xx': 50, '5xx': 50 }, 'climb', { statusCounts: { '200': 50, '501': 50 } }), phase('s2', 300, 1, { '2xx': 150, '5xx': 150 }, 'climb', { statusCounts: { '200': 150, '501': 150 } })]),
    { capRps: 300, operation: 'token' },
  );
  assert.equal(broken.verdict, 'INCONCLUSIVE');
  assert.match(broken.reason, /lowest rate/);
});

test('load refused otherwise than with 429 FAILs on 8\'s sentence: a 5xx section 7 does not list that is no gateway\'s', () => {
  const on = (status: string, operation: 'token' | 'accept') =>
    analyzeRateLimit(run([phase('s1', 100, 1, { '2xx': 100 }, 'climb', { statusCounts: { '200': 100 } }), phase('s2', 300, 1, { '2xx': 200, '5xx': 100 }, 'climb', { statusCounts: { '200': 200, [status]: 100 } })]), { capRps: 300, operation });
  const token501 = on('501', 'token');
  assert.equal(token501.verdict, 'FAIL', 'section 7 lists no 501 for the token endpoint, and no gateway answers 501');
  assert.equal(token501.on, 'SPEC-8-RATE-LIMIT');
  assert.match(token501.reason, /server errors section 7 does not list for the token endpoint, and no gateway's \(501 ×100\)/);
  assert.equal(on('505', 'accept').verdict, 'FAIL');
});

test('a gateway\'s 502, 504 or unlisted 503 and a dropped connection under load are not the limiter\'s answers: named, never a FAIL; without any 429 and no documented limit, ERROR', () => {
  // The step holds its 300 req/s (the generator kept up): `extra` takes the place of some of its 429s.
  const withOnset = (extra: Partial<Record<Outcome, number>>, exact: Partial<PhaseResult>) => {
    const n = Object.values(extra).reduce((a, b) => a + (b ?? 0), 0);
    return analyzeRateLimit(run([phase('s1', 100, 1, { '2xx': 100 }), phase('s2', 300, 1, { '2xx': 100, '429': 200 - n, ...extra }, 'climb', exact), phase('s3', 300, 1, { '2xx': 100, '429': 200 })]), { capRps: 300, operation: 'token' });
  };
  const gateway = withOnset({ '5xx': 50 }, { statusCounts: { '200': 100, '429': 150, '502': 20, '503': 20, '504': 10 } });
  assert.equal(gateway.verdict, 'PASS', gateway.reason);
  const warned = gateway.findings.filter((f) => f.level === 'WARN').map((f) => f.message).join(' | ');
  assert.match(warned, /of the answers under load were 502 ×20, 503 ×20, 504 ×10 \(gateway statuses section 7 does not list for the token endpoint\): not the limiter's answers, transient/);
  const resets = withOnset({ transport: 10 }, { errors: { ECONNRESET: 10 } });
  assert.equal(resets.verdict, 'PASS', '1.7 % connections dropped while the generator kept up: no answer of the limiter');
  assert.match(resets.findings.filter((f) => f.level === 'WARN').map((f) => f.message).join(), /10 dropped connections while the generator kept up: not the limiter's answers/);
  const few = withOnset({ '5xx': 1 }, { statusCounts: { '502': 1 } });
  assert.deepEqual(few.findings.filter((f) => /gateway statuses/.test(f.message)).map((f) => f.level), ['INFO'], 'within the tolerated share: noted only');
  // No 429 at all, only a gateway's 503s and no documented limit: the limiter was not observed.
  const hidden = analyzeRateLimit(run([phase('s1', 100, 1, { '2xx': 100 }), phase('s2', 300, 1, { '2xx': 100, '5xx': 200 }, 'climb', { statusCounts: { '200': 100, '503': 200 } })]), { capRps: 300, operation: 'token' });
  assert.equal(hidden.verdict, 'ERROR', hidden.reason);
  assert.match(hidden.reason, /^not observed: no 429 up to 300 req\/s, and 50\.0 % of the answers were 503 ×200 \(gateway statuses section 7 does not list for the token endpoint\)/);
});

test('no 429 well above a documented limit, with a gateway\'s answers or dropped connections instead, is still a profile-declared FAIL naming them', () => {
  const key = 'load.tokenRateLimit.expectedRps';
  const criteria = { capRps: 400, expectedRps: 100, expectedRpsKey: key, burst: 50, operation: 'token' as const };
  const instead503 = analyzeRateLimit(run([phase('s1', 100, 1, { '2xx': 100 }), phase('s2', 400, 1, { '2xx': 100, '5xx': 300 }, 'climb', { statusCounts: { '200': 100, '503': 300 } }), phase('s3', 400, 1, { '2xx': 100, '5xx': 300 }, 'climb', { statusCounts: { '200': 100, '503': 300 } })]), criteria);
  assert.equal(instead503.verdict, 'FAIL', instead503.reason);
  assert.equal(instead503.declaredBy, key);
  assert.match(instead503.reason, /\(instead: 503 ×600 \(gateway statuses section 7 does not list for the token endpoint\), which are not the limiter's answers\), though the profile documents a limit of 100 req\/s/);
  const insteadReset = analyzeRateLimit(run([phase('s1', 100, 1, { '2xx': 100 }), phase('s2', 400, 1, { '2xx': 100, transport: 300 }, 'climb', { errors: { ECONNRESET: 300 } }), phase('s3', 400, 1, { '2xx': 100, transport: 300 }, 'climb', { errors: { ECONNRESET: 300 } })]), criteria);
  assert.equal(insteadReset.verdict, 'FAIL', insteadReset.reason);
  assert.match(insteadReset.reason, /600 dropped connections while the generator kept up/);
});

test('what no sentence makes a failure is not one: 503 on accept sheds load, a listed 500 WARNs, the generator\'s own failures are excused', () => {
  const accept503 = analyzeRateLimit(
    run([phase('s1', 100, 1, { '2xx': 100 }, 'climb', { statusCounts: { '200': 100 } }), phase('s2', 300, 1, { '2xx': 200, '5xx': 100 }, 'climb', { statusCounts: { '200': 200, '503': 100 } })], { scenario: 'accept-rate-breakpoint' }),
    { capRps: 300 },
  );
  assert.notEqual(accept503.verdict, 'FAIL', 'section 7 lists 503 for accept: the scenario name says which row applies');
  assert.match(accept503.findings.map((f) => `${f.level} ${f.message}`).join(' | '), /INFO load was shed with 503 ×100, an answer section 7 lists for accept trade offer/);
  const with500 = analyzeRateLimit(run([phase('s1', 100, 1, { '2xx': 100 }), phase('s2', 300, 1, { '2xx': 200, '5xx': 100 }, 'climb', { statusCounts: { '200': 200, '500': 100 } })]), { capRps: 300, operation: 'token' });
  assert.notEqual(with500.verdict, 'FAIL');
  assert.match(with500.findings.filter((f) => f.level === 'WARN').map((f) => f.message).join(), /500 ×100\): section 7 lists them for the token endpoint without a condition/);
  const unrecorded = analyzeRateLimit(run([phase('s1', 100, 1, { '2xx': 100 }), phase('s2', 300, 1, { '2xx': 200, '5xx': 100 })]), { capRps: 300 });
  assert.notEqual(unrecorded.verdict, 'FAIL', 'a 5xx whose code k6 did not record contradicts no sentence');
  const timeouts = analyzeRateLimit(run([phase('s1', 100, 1, { '2xx': 100 }), phase('s2', 300, 1, { '2xx': 150, '429': 100, transport: 50 }, 'climb', { errors: { ETIMEDOUT: 50 } })]), { capRps: 300 });
  assert.equal(timeouts.verdict, 'PASS', timeouts.reason);
  assert.match(timeouts.findings.map((f) => f.message).join(), /ETIMEDOUT ×50\) were the generator's own time-outs/);
  const behind = analyzeRateLimit(run([phase('s1', 100, 1, { '2xx': 100 }), phase('s2', 300, 1, { '2xx': 150, '429': 100, transport: 50 }, 'climb', { errors: { ECONNRESET: 50 }, dropped: 40 })]), { capRps: 300 });
  assert.equal(behind.verdict, 'PASS', 'resets in a step whose arrivals the generator dropped are not counted against the target');
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

test('steps whose iterations ended in their set-up (the suite\'s own token refused mid-run) are not judged: no collapse, no missed recovery, no estimate from them', () => {
  // The accept staircase under a 3 s token lifetime while the token staircase held the token endpoint at its limit: the offers
  // the accepts need were refused 401 for a whole step, and in the recovery step (seen in the self-test: "fell to 0 req/s").
  const unmeasured = (name: string, rps: number, role = 'climb') => ({ ...phase(name, rps, 1, {}, role), sent: rps, setupFailed: { '401': rps } });
  const a = analyzeRateLimit(
    run([phase('s1', 25, 1, { '2xx': 25 }), phase('s2', 75, 1, { '2xx': 68, '429': 7 }), phase('s3', 75, 1, { '2xx': 50, '429': 25 }), unmeasured('s4', 75), unmeasured('r', 40, 'recovery')]),
    { capRps: 75, expectedRps: 50 },
  );
  assert.equal(a.verdict, 'PASS', a.reason);
  assert.equal(a.estimatedLimitRps, 50, 'the plateau estimate leaves out the step that measured nothing');
  assert.deepEqual(a.findings.filter((f) => f.level === 'WARN'), []);
  assert.equal(a.recovered, undefined);
  const notes = a.findings.filter((f) => f.level === 'INFO').map((f) => f.message);
  assert.ok(notes.some((m) => /^75 of the 75 iterations at 75 req\/s ended in their set-up, before the measured request \(set-up answers: 401 ×75; 401 is the target refusing the suite's own access token.*its throughput is not judged$/.test(m)), notes.join(' | '));
  assert.ok(notes.some((m) => /^40 of the 40 iterations at 40 req\/s ended in their set-up.*whether the limiter recovered is not judged$/.test(m)), notes.join(' | '));
  assert.equal(a.steps[3]!.endedInSetUp, 75);

  // A few set-up failures (within a tenth of the step) leave the step judged: a collapse is still seen.
  const few = analyzeRateLimit(
    run([phase('s1', 25, 1, { '2xx': 25 }), phase('s2', 75, 1, { '2xx': 68, '429': 7 }), phase('s3', 75, 1, { '2xx': 50, '429': 25 }), { ...phase('s4', 75, 1, { '2xx': 5, '429': 65 }), sent: 75, achievedRps: 75, setupFailed: { '401': 5 } }]),
    { capRps: 75 },
  );
  assert.match(few.findings.filter((f) => f.level === 'WARN').map((f) => f.message).join(), /fell to 5 req\/s at 75 req\/s offered/);
});

test('a limiter without burst allowance has recovered though a stalled generator\'s bunched requests are refused; one still refusing most has not', () => {
  // 200 req/s, no burst: each overloaded step admits ~148/s; the recovery step at 119 req/s had 6 × 429 when the generator stalled (seen in the self-test).
  const climb = [phase('s1', 100, 0.5, { '2xx': 49, '429': 1 }), phase('s2', 300, 1, { '2xx': 148, '429': 152 }), phase('s3', 300, 1, { '2xx': 148, '429': 152 })];
  const bunched = analyzeRateLimit(run([...climb, phase('r', 119, 1, { '2xx': 113, '429': 6 }, 'recovery')]), { capRps: 300 });
  assert.ok(bunched.limitRangeRps, 'read as a limiter without burst allowance');
  assert.equal(bunched.recovered, true, bunched.reason);
  assert.deepEqual(bunched.findings.filter((f) => f.level === 'WARN'), []);
  const stuck = analyzeRateLimit(run([...climb, phase('r', 119, 1, { '2xx': 60, '429': 59 }, 'recovery')]), { capRps: 300 });
  assert.equal(stuck.recovered, false);
  assert.match(stuck.findings.filter((f) => f.level === 'WARN').map((f) => f.message).join(), /after backing off, 59 of 119 requests .* were still refused/);
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
  assert.match(contradicting.problems.join(' | '), /a 429 says requests remain under every quota/);
  // Two quotas: the exhausted one explains the 429, the other may still have room; its reset is the wait.
  const twoQuotas = analyzeRetryAdvice({
    'ratelimit-policy': '"token";q=200;w=1, "token-hourly";q=7200000;w=3600',
    ratelimit: '"token";r=0;t=1, "token-hourly";r=7199000;t=1800',
  });
  assert.deepEqual(twoQuotas.problems, []);
  assert.equal(twoQuotas.resetSec, 1);
  assert.equal(twoQuotas.advertisedRps, 200);
  assert.equal(advisedWaitSec({ 'ratelimit-policy': '"t";q=5;w=10', ratelimit: '"t";r=0;t=7' }), 7);
  // Drafts before 08: the quota as a bare integer with its window, beside RateLimit-Limit/-Remaining/-Reset.
  const older = analyzeRetryAdvice({ 'ratelimit-policy': '100;w=60, 1000;w=3600', 'ratelimit-limit': '100', 'ratelimit-remaining': '0', 'ratelimit-reset': '30' });
  assert.deepEqual(older.problems, []);
  assert.equal(older.resetSec, 30);
  const older7 = analyzeRetryAdvice({ 'ratelimit-policy': '100;w=60', ratelimit: 'limit=100, remaining=0, reset=5' });
  assert.deepEqual(older7.problems, []);
  // Nothing at all is no problem: the spec does not show what a 429 carries.
  assert.deepEqual(analyzeRetryAdvice({}).problems, []);
  assert.equal(advisedWaitSec({}), undefined);
  const dated = analyzeRetryAdvice({ date: 'Sun, 06 Nov 1994 08:49:37 GMT', 'retry-after': 'Sun, 06 Nov 1994 08:49:39 GMT', 'x-ratelimit-limit': '200', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.round(Date.now() / 1000) + 2) });
  assert.deepEqual(dated.problems, []);
  assert.equal(dated.retryAfterSec, 2);
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

test('413 boundary: a bare reset, a chunked bypass or a 5xx FAIL on the spec; no limit found FAILs only against a documented one', () => {
  const base = [step(4096, 'reset', 'upper bound'), step(100, 'accepted', 'lower bound'), step(1000, 'accepted', 'bisection')];
  const reset = judgeBodySize([...base, step(1001, 'reset', 'bisection'), step(1001, 'reset', 'boundary retry', 'expect-100-continue')], { maxBytes: 4096, minBytes: 100 });
  assert.equal(reset.verdict, 'FAIL');
  assert.match(reset.reason, /closed without a status/);
  const chunked = judgeBodySize([...base, step(1001, '413', 'bisection'), step(1001, 'accepted', 'boundary', 'chunked')], { maxBytes: 4096, minBytes: 100 });
  assert.match(chunked.reason, /not applied to chunked bodies/);
  assert.equal(reset.on, 'SPEC-8-SIZE-LIMIT');
  assert.equal(chunked.on, 'SPEC-8-SIZE-LIMIT');
  const serverError = judgeBodySize([step(4096, '5xx', 'upper bound', 'content-length', 500)], { maxBytes: 4096, minBytes: 100 });
  assert.equal(serverError.verdict, 'FAIL');
  assert.equal(serverError.declaredBy, undefined, 'a 5xx contradicts the spec itself');
  assert.equal(serverError.on, 'SPEC-8-SIZE-LIMIT');
  const none = judgeBodySize([step(4096, 'accepted', 'upper bound')], { maxBytes: 4096, minBytes: 100 });
  assert.equal(none.verdict, 'INCONCLUSIVE', 'the limit may lie above the largest size probed');
  assert.match(none.reason, /documents none/);
  const declared = judgeBodySize([step(4096, 'accepted', 'upper bound')], { maxBytes: 4096, minBytes: 100, expectedLimitBytes: 1000 });
  assert.equal(declared.verdict, 'FAIL');
  assert.equal(declared.declaredBy, 'load.tokenBodyLimit.expectedBytes');
  assert.equal(declared.declaredValue, 1000);
  assert.match(declared.reason, /no body-size limit/);
  assert.equal(judgeBodySize([step(4096, 'accepted', 'upper bound')], { maxBytes: 4096, minBytes: 100, expectedLimitBytes: 8192 }).verdict, 'INCONCLUSIVE');
  const brokenAlways = judgeBodySize([step(4096, '5xx', 'upper bound', 'content-length', 500), step(100, '5xx', 'lower bound', 'content-length', 500)], { maxBytes: 4096, minBytes: 100 });
  assert.equal(brokenAlways.verdict, 'INCONCLUSIVE', 'a 5xx for the plain request is not about size');
});

test('413 boundary: a gateway\'s 502, 503 or 504 still there after asking again, or a time-out, is no refusal: ERROR naming the size, never FAIL', () => {
  const context = { maxBytes: 4096, minBytes: 100 };
  for (const status of [502, 503, 504]) {
    const gateway = judgeBodySize([step(4096, '413', 'upper bound'), step(100, 'accepted', 'lower bound'), step(1000, 'accepted', 'bisection'), step(2048, '5xx', 'bisection', 'content-length', status)], context);
    assert.equal(gateway.verdict, 'ERROR', `${status}: ${gateway.reason}`);
    assert.match(gateway.reason, new RegExp(`^not observed: a content-length body of 2048 bytes \\(bisection\\): still ${status} after being asked again — a gateway's 502, 503 or 504 is a transient answer, so the answer for that size says nothing about the limit \\(observed: 1000 bytes accepted, 4096 bytes refused\\)$`));
  }
  const timedOut = judgeBodySize([step(4096, 'timeout', 'upper bound')], context);
  assert.equal(timedOut.verdict, 'ERROR', 'the largest body got no answer in time: not a refusal, so no bisection follows from it');
  assert.match(timedOut.reason, /^not observed: a content-length body of 4096 bytes \(upper bound\): no answer within 1 ms — a time-out is not a refusal/);
  const chunkedTimeout = judgeBodySize([step(4096, '413', 'upper bound'), step(100, 'accepted', 'lower bound'), step(1000, 'accepted', 'bisection'), step(1001, '413', 'bisection'), step(1001, 'timeout', 'boundary', 'chunked')], context);
  assert.equal(chunkedTimeout.verdict, 'ERROR', 'a chunked body over the limit that got no answer in time was not refused: not observed');
  // A contradiction shown with its sentence stands beside a size not observed.
  assert.equal(judgeBodySize([step(4096, '5xx', 'upper bound', 'content-length', 500), step(100, 'accepted', 'lower bound'), step(2048, 'timeout', 'bisection')], context).verdict, 'FAIL');
});

test('413 boundary: how the 413 comes is not shown — a drained body, a waited-for declared size, a 411 for chunked are findings', () => {
  const steps = [
    step(4096, '413', 'upper bound'),
    step(100, 'accepted', 'lower bound'),
    step(1000, 'accepted', 'bisection'),
    step(1001, '413', 'bisection'),
    step(1000, 'other-4xx', 'boundary', 'chunked', 411),
    step(1001, 'other-4xx', 'boundary', 'chunked', 411),
    step(1001, '413', 'boundary', 'expect-100-continue'),
    step(4096, 'timeout', 'declared size, body withheld'),
  ];
  const j = judgeBodySize(steps, { maxBytes: 4096, minBytes: 100, expectedLimitBytes: 1000 });
  assert.equal(j.verdict, 'PASS', j.reason);
  const levels = Object.fromEntries(j.findings.map((f) => [f.message, f.level]));
  assert.equal(Object.entries(levels).find(([m]) => /waits for an oversize body/.test(m))?.[1], 'INFO');
  assert.equal(Object.entries(levels).find(([m]) => /refused with 411, not 413/.test(m))?.[1], 'WARN');
  const mismatch = judgeBodySize(steps.slice(0, 4), { maxBytes: 4096, minBytes: 100, expectedLimitBytes: 2000 });
  assert.match(mismatch.findings.map((f) => `${f.level} ${f.message}`).join(), /WARN the profile documents the largest accepted body as 2000 bytes/);
});

test('recovery is the limiter letting requests through again: transient 503s in the recovery step are not 429s', () => {
  const a = analyzeRateLimit(
    run([phase('s1', 100, 1, { '2xx': 100 }), phase('s2', 300, 1, { '2xx': 200, '429': 100 }), phase('s3', 300, 1, { '2xx': 200, '429': 100 }), phase('r', 160, 1, { '2xx': 150, '5xx': 10 }, 'recovery', { statusCounts: { '200': 150, '503': 10 } })]),
    { capRps: 300, operation: 'accept' },
  );
  assert.equal(a.recovered, true);
  assert.deepEqual(a.findings.filter((f) => f.level === 'WARN'), []);
});

test('a step that started its arrivals under 95 % of its rate by more than one arrival fell behind; one short of a fractional plan did not', () => {
  const step = (offeredRps: number, durationSec: number, sent: number, achievedRps = sent / durationSec) => ({ offeredRps, durationSec, sent, achievedRps });
  assert.equal(startedBelowPlan(step(5, 0.5, 2)), false, '2.5 planned, 2 started: the plan');
  assert.equal(startedBelowPlan(step(15, 0.85, 12)), false, '12.75 planned, 12 started');
  assert.equal(startedBelowPlan(step(450, 1, 392)), true, '58 short');
  assert.equal(startedBelowPlan(step(300, 1, 300, 250)), true, 'all started, over 1.2 s: 60 arrivals late in all');
  assert.equal(startedBelowPlan(step(20, 1, 0, 0)), true, 'nothing started');
});

test('no 429 against a documented limit: only the steps the generator held can contradict it; the shortfall is named, and earlier climbs are noted', () => {
  const criteria = { capRps: 800, expectedRps: 200, burst: 20, expectedRpsKey: 'load.tokenRateLimit.expectedRps', operation: 'token' as const };
  const held = [phase('s1', 100, 0.5, { '2xx': 50 }), phase('s2', 300, 1, { '2xx': 300 })];
  const behind = phase('s3', 450, 1, { '2xx': 392 }, 'climb', { dropped: 58, late: 58 });
  // 300 in the 1 s step at 300 req/s, 50 beyond 250 req/s (the documented 200 and its tolerance): more than the burst of 20, a profile-declared FAIL.
  assert.equal(analyzeRateLimit(run([...held, behind]), criteria).verdict, 'FAIL');
  // The same counts where the generator fell behind in every step above the limit: they decide nothing, and the reason says why.
  const starved = analyzeRateLimit(run([held[0]!, phase('s2', 300, 1, { '2xx': 290 }, 'climb', { dropped: 10, late: 10 }), behind]), criteria, [[held[0]!, behind]]);
  assert.equal(starved.verdict, 'INCONCLUSIVE', starved.reason);
  assert.match(starved.reason, /0 requests beyond 250 req\/s in the steps the generator held.*the generator did not hold its plan \(at 300 req\/s 290 of 300 planned started, 10 dropped, 10 of them late; at 450 req\/s 392 of 450 planned started, 58 dropped, 58 of them late\)/);
  assert.match(starved.findings[0]!.message, /^climb 1 drew no 429 while the generator did not hold its plan \(at 450 req\/s .*\): the target was not offered the staircase planned, so it was climbed again$/);
});

test('429s below the limit, a collapse and no recovery in steps the generator did not hold are noted, never warnings: timing made them', () => {
  // The steps of the warnings test above, each with arrivals the generator started late (a starved machine).
  const late = { dropped: 10, late: 10 };
  const a = analyzeRateLimit(
    run([
      phase('s1', 50, 1, { '2xx': 45, '429': 5 }, 'climb', late),
      phase('s2', 300, 1, { '2xx': 200, '429': 100 }),
      phase('s3', 450, 1, { '2xx': 100, '429': 350 }, 'climb', late),
      phase('r', 80, 1, { '2xx': 40, '429': 40 }, 'recovery', late),
    ]),
    { capRps: 450 },
  );
  assert.equal(a.verdict, 'PASS', a.reason);
  assert.deepEqual(a.findings.filter((f) => f.level === 'WARN'), []);
  const notes = a.findings.filter((f) => f.level === 'INFO').map((f) => f.message);
  for (const said of [/^5 × 429 at 50 req\/s, well below/, /^accepted throughput fell to 100 req\/s at 450 req\/s/, /^after backing off, 40 of 80 requests/]) {
    assert.ok(notes.some((m) => said.test(m) && /but the generator did not hold this step \(at \d+ req\/s .*10 of them late\), so timing may have made it: not a warning$/.test(m)), `${said}: ${notes.join(' | ')}`);
  }
  assert.equal(a.recovered, undefined, 'whether it recovered is not known');
  assert.doesNotMatch(a.reason, /did not recover/);
});

test('an estimate off the documented limit is a warning from steps the generator held, a note from steps it did not', () => {
  const criteria = { capRps: 450, expectedRps: 200, expectedRpsKey: 'load.tokenRateLimit.expectedRps' };
  const climb = (late: Partial<PhaseResult>) => run([phase('s1', 100, 1, { '2xx': 100 }), phase('s2', 300, 1, { '2xx': 250, '429': 50 }), phase('s3', 450, 1, { '2xx': 100, '429': 350 }, 'climb', late)]);
  const off = /^the estimated limit of 100 req\/s differs from the 200 req\/s the profile documents/;
  const held = analyzeRateLimit(climb({}), criteria);
  assert.ok(held.findings.some((f) => f.level === 'WARN' && off.test(f.message)), JSON.stringify(held.findings));
  const starved = analyzeRateLimit(climb({ dropped: 40, late: 40 }), criteria);
  assert.ok(starved.findings.some((f) => f.level === 'INFO' && off.test(f.message) && /but the generator did not hold the steps it was read from \(at 450 req\/s/.test(f.message)), JSON.stringify(starved.findings));
  assert.ok(!starved.findings.some((f) => f.level === 'WARN' && off.test(f.message)));
});
