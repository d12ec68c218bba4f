import { AREA_MODELS } from './explore/areas/index.ts';
import { exploreSeeds, exploredAreaOf, faultTargets, withReference } from './test/support/explore-proof.ts';
const only = process.argv[2];
for (const target of faultTargets().filter((t) => !only || t.name.startsWith(only))) {
  const models = AREA_MODELS.filter((m) => m.area === exploredAreaOf(target.name));
  const t0 = Date.now();
  const { above, cases } = await withReference(target, (explored) => exploreSeeds(explored, [20261129], { maxCases: Number(process.argv[3] ?? 1000), models, budgetMs: 30_000 }));
  console.log(target.name.padEnd(46), String(Date.now() - t0).padStart(6), 'ms', cases, [...new Set(above.map((a) => `${a.verdict} ${a.check}`))].join(', '));
}
