// The pure parts of the load design: k6 durations, the burst-aware
// staircase, arrival schedules, templates, exact-size bodies and bisection.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { durationSec, formatDuration } from '../../load/scenarios/duration.ts';
import { drainSec, planClimb, staircaseScenarios } from '../../load/scenarios/staircase.ts';
import { breakpointSteps, tokenRateBreakpoint } from '../../load/scenarios/breakpoints.ts';
import { arrivalOffsets, plannedArrivals } from '../../load/engine/schedule.ts';
import { fillRequest } from '../../load/scenarios/request.ts';
import { tokenRequest } from '../../load/scenarios/operations.ts';
import { baseBody, paddedBody, requestBudget, SizeBisection, utf8Length } from '../../load/scenarios/body-size.ts';
import { profileScenario, PROFILE_KINDS } from '../../load/scenarios/profiles.ts';
import { SCENARIOS } from '../../load/scenarios/index.ts';
import { DROPPED } from '../../load/scenarios/metrics.ts';

test('k6 durations parse and format', () => {
  assert.equal(durationSec('1h30m'), 5400);
  assert.equal(durationSec('1.5s'), 1.5);
  assert.equal(durationSec('250ms'), 0.25);
  assert.equal(durationSec('2m10s'), 130);
  assert.throws(() => durationSec('5 minutes'), /not a k6 duration/);
  assert.equal(formatDuration(1.25), '1250ms');
  assert.equal(durationSec(formatDuration(0.37)), 0.37);
});

test('a staircase aimed at a known limit drains the burst in the onset step', () => {
  const steps = planClimb({ capRps: 800, maxDurationSec: 15, expectedRps: 200, burst: 50 });
  assert.deepEqual(steps.map((s) => s.rate), [100, 300, 450, 800]);
  const onset = steps[1]!;
  // 50 tokens at 300 − 200 req/s drain in 0.5 s: the step lasts longer, so 429s must show within it.
  assert.ok(onset.durationSec > drainSec(50, 300, 200), `${onset.durationSec} s > 0.5 s`);
  // Steps follow each other without a gap: the bucket stays drained from one to the next.
  for (let i = 1; i < steps.length; i++) assert.equal(steps[i]!.startSec, steps[i - 1]!.startSec + steps[i - 1]!.durationSec);
});

test('a blind staircase doubles from cap/16 and holds the cap, within the duration budget', () => {
  const steps = planClimb({ capRps: 1600, maxDurationSec: 10 });
  assert.deepEqual(steps.map((s) => s.rate), [100, 200, 400, 800, 1600, 1600]);
  const short = planClimb({ capRps: 1600, maxDurationSec: 5 });
  const end = short.at(-1)!.startSec + short.at(-1)!.durationSec;
  assert.ok(end <= 5 - 1 + 1e-9, `climb ends at ${end} s, leaving the recovery second`);
  const withRecovery = breakpointSteps({ capRps: 1600, maxDurationSec: 30, expectedRps: 400 });
  const recovery = withRecovery.at(-1)!;
  assert.equal(recovery.role, 'recovery');
  assert.equal(recovery.rate, 320, 'recovery at 80 % of the expected limit');
});

test('staircase scenarios speak k6: constant-arrival-rate, tags, dropped guard, sub-metric thresholds', () => {
  const scenario = tokenRateBreakpoint({ capRps: 400, maxDurationSec: 10, expectedRps: 100, burst: 20 });
  const first = scenario.scenarios['step-01']!;
  assert.equal(first.executor, 'constant-arrival-rate');
  assert.equal(first.timeUnit, '1s');
  assert.equal(first.tags?.phase, 'step-01');
  assert.ok(first.maxVUs! >= first.preAllocatedVUs);
  assert.deepEqual(scenario.thresholds[DROPPED], ['count==0']);
  assert.deepEqual(scenario.thresholds['ptas_answers{phase:step-01,outcome:429}'], ['count>=0']);
  const { scenarios } = staircaseScenarios(scenario.steps!, 8);
  assert.ok(Object.values(scenarios).every((s) => (s.maxVUs ?? 0) <= 8), 'the in-flight bound caps every step');
});

test('constant arrivals are evenly spaced; ramping arrivals follow the rate integral', () => {
  const constant = [...arrivalOffsets({ executor: 'constant-arrival-rate', rate: 50, duration: '2s', preAllocatedVUs: 1 })];
  assert.equal(constant.length, 100);
  assert.ok(constant.every((t, i) => Math.abs(t - i * 0.02) < 1e-9));
  const ramp = { executor: 'ramping-arrival-rate' as const, startRate: 0, stages: [{ target: 100, duration: '2s' }, { target: 100, duration: '1s' }], preAllocatedVUs: 1 };
  const times = [...arrivalOffsets(ramp)];
  assert.equal(times.length, plannedArrivals(ramp));
  assert.equal(times.length, 200, '0→100 over 2 s is 100 arrivals, then 100 in the last second');
  assert.equal(times.filter((t) => t < 1).length, 25, 'a linear ramp puts a quarter of its arrivals in its first half');
  assert.ok(times.every((t, i) => i === 0 || t >= times[i - 1]!));
});

test('templates fill placeholders, encode path values and keep JSON types', () => {
  const filled = fillRequest(
    { name: 'x', method: 'POST', path: '/v1/offers/{offerId}/accept', query: { a: '{userId}' }, headers: { 'svc-user-id': '{userId}' }, json: { n: '{processingMs}', s: 'u-{userId}' }, bearer: true },
    { offerId: 'a/b', userId: 'u 1', processingMs: 20, accessToken: 'tok' },
  );
  assert.equal(filled.pathAndQuery, '/v1/offers/a%2Fb/accept?a=u%201');
  assert.equal(filled.headers['svc-user-id'], 'u 1');
  assert.equal(filled.headers['authorization'], 'Bearer tok');
  assert.deepEqual(JSON.parse(filled.body!), { n: 20, s: 'u-u 1' });
});

test('padded bodies have the exact byte size and stay the same JSON', () => {
  const base = baseBody(tokenRequest(), { clientId: 'clé', clientSecret: 's3cret' });
  for (const size of [utf8Length(base), utf8Length(base) + 1, 16_385]) {
    const body = paddedBody(base, size)!;
    assert.equal(Buffer.byteLength(body), size);
    assert.deepEqual(JSON.parse(body), JSON.parse(base));
  }
  assert.equal(paddedBody(base, utf8Length(base) - 1), undefined);
});

test('bisection finds the boundary to the byte within ⌈log2(range)⌉ probes', () => {
  for (const limit of [118, 1000, 16_384, 65_535, 1_048_574]) {
    const bisection = new SizeBisection(118, 1_048_576);
    let probes = 0;
    for (let size = bisection.next(); size !== undefined; size = bisection.next()) {
      probes++;
      bisection.record(size, size > limit);
    }
    assert.equal(bisection.low, limit);
    assert.equal(bisection.high, limit + 1);
    assert.ok(probes <= Math.ceil(Math.log2(1_048_576 - 118)), `${probes} probes for limit ${limit}`);
  }
  assert.equal(requestBudget(1_048_458), 2 * 20 + 4);
});

test('every profile of every operation has stages, thresholds and shrinks to a duration cap', () => {
  const trading = { userId: 'u', createOffer: { name: 'create-offer', method: 'POST' as const, path: '/offers', setup: true } };
  for (const kind of PROFILE_KINDS) {
    for (const operation of ['token', 'user-details', 'accept'] as const) {
      const s = profileScenario(kind, operation, { capRps: 100, maxDurationSec: 6, expectedRps: 50, trading, userId: 'u' });
      const main = s.scenarios.main!;
      assert.equal(main.executor, 'ramping-arrival-rate');
      if (main.executor !== 'ramping-arrival-rate') continue;
      const total = main.stages.reduce((sum, st) => sum + durationSec(st.duration), 0);
      assert.ok(total <= 6.05, `${s.name}: ${total} s`);
      assert.ok(main.stages.every((st) => st.target <= 100), `${s.name} stays under the cap`);
      assert.ok(Object.keys(s.thresholds).some((k) => k.startsWith('ptas_latency')), `${s.name} has a latency threshold`);
    }
  }
  assert.equal(new Set(SCENARIOS.map((s) => s.name)).size, 3 + 15);
});
