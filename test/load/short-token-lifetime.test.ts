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
import { judgeLoadStageUnder } from './support/condition-stage.ts';

test('short-token-lifetime: every load check passes, no accept iteration ends in its set-up, both limits within ±5 %', { timeout: 120_000 }, async (t) => {
  await judgeLoadStageUnder('short-token-lifetime', t, (checkId, probe, steps) => {
    assert.ok(probe.steps.every((s) => !s.endedInSetUp), `${checkId}: iterations ended in their set-up: ${steps}`);
  });
});
