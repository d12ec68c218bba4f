// Acceptance of the 429 probe (issue 7): against the reference with its
// token rate limit set to 100, 300 and 1,000 req/s (each with a burst), the
// estimate is within ±10 % and nothing is refused at 80 % of the limit. The
// limiter faulted to 503, to no limit and to dropped connections FAIL in
// test/load/faults.test.ts, which runs every load fault. A probe whose
// generator did not hold its plan measured the machine, not the estimator:
// it is probed again (see delivered). The probe's own climb-again, when a climb
// drew no 429 while its generator fell behind, is the last test's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runEngine } from '../../load/engine/engine.ts';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_CLIMBS, runRateLimitProbe } from '../../load/probes/rate-limit/run.ts';
import { analyzeRateLimit } from '../../load/probes/rate-limit/analysis.ts';
import { generatorFellBehind } from '../../load/probes/rate-limit/overload.ts';
import type { NormalizedRun } from '../../load/result/normalized.ts';
import { tokenRateBreakpoint } from '../../load/scenarios/breakpoints.ts';
import { tokenRequest } from '../../load/scenarios/operations.ts';
import { spawnReference } from '../../app/run/reference-process.ts';
import { REFERENCE_DEFAULTS } from '../../reference/options.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function probe(reference: { url: string; options: { clientId?: string; clientSecret: string } }, capRps: number) {
  return runRateLimitProbe({
    baseUrl: reference.url,
    scenario: tokenRateBreakpoint({ capRps, maxDurationSec: 12 }),
    variables: { clientId: reference.options.clientId ?? REFERENCE_DEFAULTS.clientId, clientSecret: reference.options.clientSecret },
    criteria: { capRps },
  });
}

const describeSteps = (steps: Array<{ offeredRps: number; sent: number; dropped: number; accepted: number; rateLimited: number }>) =>
  steps.map((s) => `${s.offeredRps}/s: ${s.accepted} ok ${s.rateLimited}×429 of ${s.sent}${s.dropped ? ` (${s.dropped} not started)` : ''}`).join('; ');

/** Attempts at a blind probe whose generator did not hold its plan (a busy machine: two timed files run side by side). */
const PROBE_ATTEMPTS = 3;

/**
 * Whether the generator held the staircase (the load analysis's own
 * generatorFellBehind) in every step up to twice the limit, the steps the
 * estimate reads. One it did not hold measured the machine, not the estimator
 * (at 1,000 req/s on 2 busy cores, 1,209 of 2,000 arrivals once went out and
 * the estimate read 20 % high).
 */
function delivered(run: NormalizedRun, limit: number): boolean {
  return run.phases.every((phase) => phase.offeredRps > 2 * limit || !generatorFellBehind(phase));
}

for (const limit of [100, 300, 1000]) {
  test(`token limit ${limit} req/s: estimated within ±10 % without being told, and no 429 at 80 %`, { timeout: 60_000 }, async (t) => {
    const burst = Math.max(50, limit / 4);
    const reference = await spawnReference({ tokenRatePerSecond: limit, tokenBurst: burst });
    try {
      // Blind: the staircase only knows its cap, four times the limit.
      let { run, analysis } = await probe(reference, 4 * limit);
      for (let attempt = 2; attempt <= PROBE_ATTEMPTS && !delivered(run, limit); attempt++) {
        t.diagnostic(`limit ${limit}: the generator fell behind (${describeSteps(analysis.steps)}); probing again (${attempt}/${PROBE_ATTEMPTS})`);
        await sleep((burst / limit) * 1000 + 500);
        ({ run, analysis } = await probe(reference, 4 * limit));
      }
      assert.ok(delivered(run, limit), `in ${PROBE_ATTEMPTS} probes the generator never delivered the staircase up to twice the limit, so the estimate was not measured: ${describeSteps(analysis.steps)}`);
      t.diagnostic(`limit ${limit}: estimate ${analysis.estimatedLimitRps} req/s (${analysis.estimateMethod}), onset ${analysis.onsetRps}, burst ≈ ${analysis.estimatedBurst} (set ${burst}); ${describeSteps(analysis.steps)}`);
      assert.equal(analysis.verdict, 'PASS', analysis.reason);
      const error = Math.abs(analysis.estimatedLimitRps! - limit) / limit;
      assert.ok(error <= 0.1, `estimate ${analysis.estimatedLimitRps} is ${(error * 100).toFixed(1)} % off ${limit}: ${describeSteps(analysis.steps)}`);

      await sleep((burst / limit) * 1000 + 500); // let the bucket fill again
      const below = await runEngine({
        baseUrl: reference.url,
        variables: { clientId: REFERENCE_DEFAULTS.clientId, clientSecret: reference.options.clientSecret },
        rateLimitExpected: true,
        scenario: { name: 'eighty-percent', iteration: [tokenRequest()], thresholds: {}, scenarios: { main: { executor: 'constant-arrival-rate', rate: 0.8 * limit, duration: '2s', preAllocatedVUs: 10, maxVUs: 400 } } },
      });
      const at80 = below.phases[0]!;
      t.diagnostic(`limit ${limit}: at ${0.8 * limit} req/s ${at80.answers['2xx']} × 2xx, ${at80.answers['429']} × 429`);
      assert.equal(at80.answers['429'], 0, `${at80.answers['429']} × 429 at 80 % of the limit`);
      assert.equal(at80.answers['2xx'], at80.sent);
    } finally {
      await reference.stop();
    }
  });
}

/** A token endpoint without a rate limit that answers after `latencyMs`: on 127.0.0.1, for the climb-again test. */
async function unlimitedTokenEndpoint(latencyMs: number): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () =>
      setTimeout(() => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ access_token: 'a', refresh_token: 'r', token_type: 'Bearer', expires_in: 300 }));
      }, latencyMs),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

test('a climb that drew no 429 while the generator fell behind is climbed again, three climbs at most and within the load budget, each kept; a climb it held is judged at once', { timeout: 60_000 }, async () => {
  // Documented 10 req/s, burst 2: steps of 5, 15 and 23 req/s, 2.35 s a climb (the 3.5 s budget leaves no room for the cap).
  const criteria = { capRps: 40, expectedRps: 10, burst: 2, expectedRpsKey: 'load.tokenRateLimit.expectedRps' };
  const climbOn = async (latencyMs: number, maxInFlight: number, loadBudgetSec = 20) => {
    const target = await unlimitedTokenEndpoint(latencyMs);
    const climbs: number[] = [];
    const log: string[] = [];
    try {
      const result = await runRateLimitProbe({
        baseUrl: target.url,
        scenario: tokenRateBreakpoint({ capRps: criteria.capRps, maxDurationSec: 3.5, expectedRps: criteria.expectedRps, burst: criteria.burst }, maxInFlight),
        variables: { clientId: 'c', clientSecret: 's' },
        criteria,
        loadBudgetSec,
        maxInFlight,
        onStep: (_step, climb) => climbs.push(climb),
        log: (line) => log.push(line),
      });
      return { ...result, climbs, log };
    } finally {
      await target.close();
    }
  };

  // Four requests in flight, each answered after 250 ms: at most 16 req/s, so at 23 req/s arrivals are dropped.
  const starved = await climbOn(250, 4);
  assert.equal(starved.earlierClimbs.length, MAX_CLIMBS - 1, 'climbed three times in all');
  assert.deepEqual([...new Set(starved.climbs)], [1, 2, 3], 'each step is told with its climb');
  const notes = starved.analysis.findings.filter((f) => /^climb \d drew no 429 while the generator did not hold its plan/.test(f.message));
  assert.equal(notes.length, 2, JSON.stringify(starved.analysis.findings));
  assert.match(notes[0]!.message, /at 23 req\/s \d+ of 23 planned started, \d+ dropped/);
  // The last climb fell behind too: not judged against the documented limit, and the reason says why.
  assert.equal(starved.analysis.verdict, 'INCONCLUSIVE', starved.analysis.reason);
  assert.match(starved.analysis.reason, /the generator did not hold its plan \(at 23 req\/s .*\), so the target was not offered the staircase planned/);
  // Judged again from the kept measurements (ptas rejudge), the earlier climbs are noted the same way.
  const again = analyzeRateLimit(starved.run, criteria, starved.earlierClimbs);
  assert.deepEqual(again.findings, starved.analysis.findings);

  // The probe's load budget (load.caps.durationSeconds) bounds the climbs: with room for one, it climbs once and says why.
  const bounded = await climbOn(250, 4, 5);
  // (a climb of 2.35 s and the answers it waits for, then another and the 1 s recovery step, pass 5 s)
  assert.deepEqual(bounded.earlierClimbs, []);
  assert.deepEqual([...new Set(bounded.climbs)], [1]);
  assert.match(bounded.log.join('\n'), /another climb would pass the probe's 5 s of load/, bounded.log.join('\n'));
  assert.equal(bounded.analysis.verdict, 'INCONCLUSIVE', bounded.analysis.reason);

  // The same target answering at once, with room in flight: the climb held, drew no 429 far above the documented limit, and FAILs on it without climbing again.
  const held = await climbOn(0, 512);
  assert.deepEqual(held.earlierClimbs, []);
  assert.deepEqual([...new Set(held.climbs)], [1]);
  assert.equal(held.analysis.verdict, 'FAIL', held.analysis.reason);
  assert.equal(held.analysis.declaredBy, criteria.expectedRpsKey);
});
