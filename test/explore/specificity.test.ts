// Specificity of exploration, on a small fixed set of seeds (the bench
// `npm run bench -- explore-specificity` takes 100 per target): on the clean
// reference, each legitimate variant and each real-world condition,
// exploration finds nothing above REVIEW — no FAIL, WARN or ERROR.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exploreSeeds, specificityTargets, withReference, type AboveReview } from '../support/explore-proof.ts';

const SEEDS = [1, 20261129];

test('no finding above REVIEW on the clean reference, any variant or any condition', async () => {
  const above: Array<AboveReview & { target: string }> = [];
  let cases = 0;
  for (const target of specificityTargets()) {
    const explored = await withReference(target, (t) => exploreSeeds(t, SEEDS, { maxCases: 30 }));
    cases += explored.cases;
    above.push(...explored.above.map((a) => ({ ...a, target: target.name })));
  }
  assert.deepEqual(above, []);
  assert.ok(cases > 0);
});
