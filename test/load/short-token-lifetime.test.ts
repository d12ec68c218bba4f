// The load stage under the reference's short-token-lifetime condition (access
// tokens live 3 s, then every operation answers them 401). Each accept of the
// accept staircase needs an offer, created with the suite's own token; run
// beside the token staircase, that token's renewal was refused 429 by the
// staircase holding the token endpoint at its limit, the offers of a whole
// step were refused 401, and the probe WARNed "accepted throughput fell to
// 0 req/s" (or read the limit 6.6 % high from the steps left). With a token
// that short the staircases take turns (load/stage.ts): every iteration
// reaches its accept, and both limits are estimated within ±5 %.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { runLoadStage } from '../../load/stage.ts';
import { spawnReference } from '../../app/run/reference-process.ts';
import { referenceProfile } from '../../reference/profile.ts';
import { REFERENCE_DEFAULTS } from '../../reference/options.ts';

const quiet = new Writable({ write: (_chunk, _enc, done) => done() });

test('short-token-lifetime: every load check passes, no accept iteration ends in its set-up, both limits within ±5 %', { timeout: 120_000 }, async (t) => {
  const reference = await spawnReference({ conditions: ['short-token-lifetime'] });
  try {
    const run = await runLoadStage({ profile: referenceProfile(reference.url, reference.options), embeddedReference: true, output: quiet });
    assert.deepEqual(
      run.checks.filter((c) => c.verdict !== 'PASS' && !(c.severity === 'REVIEW' && c.verdict === 'REVIEW')).map((c) => `${c.id}: ${c.verdict} ${c.reason}`),
      [],
    );
    const options = { ...REFERENCE_DEFAULTS, ...reference.options };
    const limits: Record<string, number> = { 'load.token-rate-limit': options.tokenRatePerSecond, 'load.accept-rate-limit': options.acceptRatePerSecond };
    for (const [checkId, limit] of Object.entries(limits)) {
      const probe = run.load!.probes.find((p) => p.checkId === checkId)!;
      assert.ok(probe.kind === 'rate-limit');
      const steps = probe.steps.map((s) => `${s.offeredRps}/s ${s.durationSec} s: sent ${s.sent}, ${s.accepted} ok, ${s.rateLimited}×429, ${s.endedInSetUp ?? 0} ended in set-up`).join('; ');
      t.diagnostic(`${checkId}: estimate ${probe.estimatedLimitRps} req/s for ${limit}; ${steps}`);
      assert.ok(probe.steps.every((s) => !s.endedInSetUp), `${checkId}: iterations ended in their set-up: ${steps}`);
      const error = Math.abs(probe.estimatedLimitRps! - limit) / limit;
      assert.ok(error <= 0.05, `${checkId}: estimate ${probe.estimatedLimitRps} is ${(error * 100).toFixed(1)} % off ${limit}: ${steps}`);
    }
  } finally {
    await reference.stop();
  }
});
