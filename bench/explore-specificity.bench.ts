// Specificity of exploration (README "Exploring with generated cases"): on
// the clean reference, each legitimate variant and each real-world
// condition, every explored area over 100 seeds (PTAS_BENCH_SEEDS) of 40
// cases each (PTAS_BENCH_CASES): no finding above REVIEW, ever. Printed per
// target: the cases explored, their rate, and that rate as a ratio of the
// clean reference's, measured in the same run (how much the variant or
// condition costs exploration), and every finding; any finding fails the bench.
import { exploreSeeds, specificityTargets, withReference, type AboveReview } from '../test/support/explore-proof.ts';
import { AREA_MODELS } from '../explore/areas/index.ts';
import { endWithBudgets } from './support/figures.ts';

const SEEDS = Number(process.env.PTAS_BENCH_SEEDS ?? 100);
const CASES = Number(process.env.PTAS_BENCH_CASES ?? 40);
const seeds = Array.from({ length: SEEDS }, (_, i) => 1000 + i);

console.log(`explore-specificity: areas ${AREA_MODELS.map((m) => m.area).join(', ')}; ${SEEDS} seeds of ${CASES} cases per area and target`);
const above: Array<AboveReview & { target: string }> = [];
let cleanRate = 0;
let total = 0;
const started = performance.now();
for (const target of specificityTargets()) {
  const explored = await withReference(target, (t) => exploreSeeds(t, seeds, { maxCases: CASES, concurrency: 8 }));
  const rate = explored.cases / (explored.ms / 1000);
  if (target.kind === 'clean') cleanRate = rate;
  total += explored.cases;
  above.push(...explored.above.map((a) => ({ ...a, target: target.name })));
  const found = explored.above.length ? `  ${explored.above.length} ABOVE REVIEW` : '';
  console.log(`  ${`${target.kind} ${target.name}`.padEnd(48)} ${String(explored.cases).padStart(6)} cases  ${rate.toFixed(0).padStart(5)}/s  ×${(rate / cleanRate).toFixed(2)} of clean${found}`);
}
console.log(`explore-specificity: ${total} cases over ${specificityTargets().length} targets in ${((performance.now() - started) / 1000).toFixed(0)} s; findings above REVIEW: ${above.length}`);
for (const a of above) console.log(`  ${a.target} seed ${a.seed}: ${a.verdict} ${a.check}: ${a.reason}`);
endWithBudgets([above.length > 0 && `${above.length} finding(s) above REVIEW on a correct reference`]);
