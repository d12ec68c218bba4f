// Sensitivity of exploration alone (README "Exploring with generated
// cases"): against each reference fault of an explored area, the area
// explored within a time budget (PTAS_BENCH_BUDGET_S, default 10 s) from
// PTAS_BENCH_SEEDS seeds (default 3): whether it found the fault, by which
// rule, in how many of the seeds (a seed ends once a rule the table names
// for the fault is found). The baseline is the
// clean reference explored the same way in the same run (it must find
// nothing). The share found is the figure to track; test/explore/fault-table.ts
// says which faults are out of reach by design, and why.
import { AREA_MODELS } from '../explore/areas/index.ts';
import { exploreSeeds, exploredAreaOf, faultTargets, withReference } from '../test/support/explore-proof.ts';
import { EXPLORED_FAULTS } from '../test/explore/fault-table.ts';
import type { AreaExploration } from '../explore/engine.ts';
import { endWithBudgets } from './support/figures.ts';

const BUDGET_MS = Number(process.env.PTAS_BENCH_BUDGET_S ?? 10) * 1000;
const SEEDS = Array.from({ length: Number(process.env.PTAS_BENCH_SEEDS ?? 3) }, (_, i) => 500 + i);

console.log(`explore-sensitivity: ${SEEDS.length} seed(s) per fault, ${BUDGET_MS / 1000} s of exploration each`);
const clean = await withReference({ name: 'clean', kind: 'clean', options: {} }, (t) => exploreSeeds(t, SEEDS, { budgetMs: BUDGET_MS, concurrency: 1 }));
console.log(`  baseline: the clean reference, ${clean.cases} cases in ${(clean.ms / 1000).toFixed(1)} s: ${clean.above.length} finding(s) above REVIEW`);
let found = 0;
const faults = faultTargets();
const rows = new Map<string, string>();
const queue = [...faults];
// Faults explored side by side: the paced areas (auth, trading, webhooks) mostly wait.
await Promise.all(
  Array.from({ length: 6 }, async () => {
    for (let target = queue.shift(); target; target = queue.shift()) {
      const models = AREA_MODELS.filter((m) => m.area === exploredAreaOf(target!.name));
      const expected = EXPLORED_FAULTS[target.name];
      const rules = expected && 'foundBy' in expected ? [expected.foundBy, ...(expected.alsoBy ?? [])] : [];
      // A seed's exploration ends once a rule the table names for the fault is found: the rest of its budget would find nothing more to count.
      const enough = (e: AreaExploration) => e.findings.some((f) => rules.includes(f.rule.id));
      const explored = await withReference(target, (t) => exploreSeeds(t, SEEDS, { budgetMs: BUDGET_MS, concurrency: 1, models, enough }));
      const seedsFinding = new Set(explored.above.filter((a) => a.verdict !== 'ERROR').map((a) => a.seed)).size;
      const findings = [...new Set(explored.above.map((a) => `${a.verdict} ${a.check}`))].join(', ');
      if (seedsFinding === SEEDS.length) found++;
      const note = expected && 'notFound' in expected ? ` (by design: ${expected.notFound.split(':')[0]})` : '';
      rows.set(target.name, `  ${target.name.padEnd(40)} ${seedsFinding}/${SEEDS.length} seeds  ${findings || 'not found'}${seedsFinding ? '' : note}`);
    }
  }),
);
for (const target of faults) console.log(rows.get(target.name));
console.log(`explore-sensitivity: found by exploration alone in every seed: ${found} of ${faults.length} faults (${((100 * found) / faults.length).toFixed(0)} %), ${BUDGET_MS / 1000} s each`);
endWithBudgets([clean.above.length > 0 && 'a finding on the clean reference', found / faults.length < 0.7 && `found ${found} of ${faults.length}, under 70 %`]);
