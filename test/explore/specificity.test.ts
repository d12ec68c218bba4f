// Specificity of exploration, on a small fixed set of seeds (the bench
// `npm run bench -- explore-specificity` takes 100 per target and every
// target for every area): for each explored area, on the clean reference and
// each legitimate variant and real-world condition that touches the area,
// exploration finds nothing above REVIEW — no FAIL, WARN or ERROR. The areas
// whose cases wait (auth: the token endpoint's rate limit; trading: processing,
// polls and expiry; webhooks: deliveries and observation windows) take fewer
// cases, and long-processing (a 65 s poll) is left to the bench.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AREA_MODELS } from '../../explore/areas/index.ts';
import { exploreSeeds, specificityTargetsOf, withReference, type AboveReview, type ProofTarget } from '../support/explore-proof.ts';

const SEEDS = [20261129];
const CASES: Record<string, number> = { auth: 8, users: 40, 'crypto-transfers': 40, trading: 2, webhooks: 2 };
const BENCH_ONLY = new Set(['long-processing']);
/** Targets explored side by side: most of a case is waiting for the target. */
const AT_ONCE = 6;

for (const model of AREA_MODELS) {
  test(`${model.area}: no finding above REVIEW on the clean reference, or on any variant or condition that touches it`, async (t) => {
    const targets = specificityTargetsOf(model.area).filter((target) => !BENCH_ONLY.has(target.name));
    const above: Array<AboveReview & { target: string }> = [];
    let cases = 0;
    const queue: ProofTarget[] = [...targets];
    await Promise.all(
      Array.from({ length: AT_ONCE }, async () => {
        for (let target = queue.shift(); target; target = queue.shift()) {
          const explored = await withReference(target, (ref) => exploreSeeds(ref, SEEDS, { maxCases: CASES[model.area] ?? 20, models: [model], concurrency: 1 }));
          cases += explored.cases;
          above.push(...explored.above.map((a) => ({ ...a, target: target!.name })));
        }
      }),
    );
    t.diagnostic(`${cases} cases over ${targets.length} targets`);
    assert.deepEqual(above, []);
    assert.ok(cases > 0);
  });
}
