// The load stage against the bundled reference under one real-world
// condition, judged as the condition tests judge it: every load check passes
// (REVIEW where the check is a review), and both 429 probes estimate the
// limit the reference is configured with within ±5 %. `each` adds what a
// condition asks of each probe, given its steps written out for messages.
import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { runLoadStage } from '../../../load/stage.ts';
import { spawnReference } from '../../../app/run/reference-process.ts';
import { referenceProfile } from '../../../reference/profile.ts';
import { REFERENCE_DEFAULTS } from '../../../reference/options.ts';
import type { RateLimitProbe } from '../../../src/results/load-model.ts';


export async function judgeLoadStageUnder(condition: string, t: TestContext, each: (checkId: string, probe: RateLimitProbe, steps: string) => void): Promise<void> {
  const reference = await spawnReference({ conditions: [condition] });
  try {
    const run = await runLoadStage({ profile: referenceProfile(reference.url, reference.options), embeddedReference: true });
    assert.deepEqual(
      run.checks.filter((c) => c.verdict !== 'PASS' && !(c.severity === 'REVIEW' && c.verdict === 'REVIEW')).map((c) => `${c.id}: ${c.verdict} ${c.reason}`),
      [],
    );
    const options = { ...REFERENCE_DEFAULTS, ...reference.options };
    const limits: Record<string, number> = { 'load.token-rate-limit': options.tokenRatePerSecond, 'load.accept-rate-limit': options.acceptRatePerSecond };
    for (const [checkId, limit] of Object.entries(limits)) {
      const probe = run.load!.probes.find((p) => p.checkId === checkId)!;
      assert.ok(probe.kind === 'rate-limit');
      const steps = probe.steps
        .map((s) => `${s.offeredRps}/s ${s.durationSec} s: sent ${s.sent}, dropped ${s.dropped}, ${s.accepted} ok, ${s.rateLimited}×429, ${s.endedInSetUp ?? 0} ended in set-up`)
        .join('; ');
      t.diagnostic(`${checkId}: estimate ${probe.estimatedLimitRps} req/s for ${limit} (${probe.estimateMethod}); ${steps}`);
      const error = Math.abs(probe.estimatedLimitRps! - limit) / limit;
      assert.ok(error <= 0.05, `${checkId}: estimate ${probe.estimatedLimitRps} is ${(error * 100).toFixed(1)} % off ${limit}: ${steps}`);
      each(checkId, probe, steps);
    }
  } finally {
    await reference.stop();
  }
}
