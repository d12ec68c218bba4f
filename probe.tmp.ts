import { AREA_MODELS } from './explore/areas/index.ts';
import { exploreSeeds, exploredAreaOf, faultTargets, withReference } from './test/support/explore-proof.ts';
const only = process.argv[2];
const targets = faultTargets().filter((t) => !only || exploredAreaOf(t.name) === only);
const cases = Number(process.argv[3] ?? 150);
const t00 = Date.now();
await Promise.all(Array.from({ length: 8 }, async () => {
  for (let target = targets.shift(); target; target = targets.shift()) {
    const models = AREA_MODELS.filter((m) => m.area === exploredAreaOf(target.name));
    const t0 = Date.now();
    const r = await withReference(target, (explored) => exploreSeeds(explored, [20261129], { maxCases: cases, models, budgetMs: 30_000 }));
    console.log(target.name.padEnd(40), String(Date.now() - t0).padStart(6), 'ms', r.cases, [...new Set(r.above.map((a) => `${a.verdict} ${a.check}`))].join(', '));
  }
}));
console.log('total', Date.now() - t00);
