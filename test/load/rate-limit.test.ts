// Acceptance of the 429 probe (issue 7): against the reference with its
// token rate limit set to 100, 300 and 1,000 req/s (each with a burst), the
// estimate is within ±10 % and nothing is refused at 80 % of the limit. The
// limiter faulted to 503, to no limit and to dropped connections FAIL in
// test/load/faults.test.ts, which runs every load fault. A probe whose
// generator did not hold its plan measured the machine, not the estimator:
// it is probed again (see delivered).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runEngine } from '../../load/engine/engine.ts';
import { runRateLimitProbe } from '../../load/probes/rate-limit/run.ts';
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
