// Specificity of exploration (README "Exploring with generated cases"): on
// the clean reference, each legitimate variant and each real-world
// condition, every explored area over 100 seeds (PTAS_BENCH_SEEDS): no
// finding above REVIEW, ever. Each seed runs a number of cases per area
// (PTAS_BENCH_CASES scales them: 40 for users and crypto-transfers; the
// areas whose cases wait, a quarter (auth: the token endpoint's rate limit)
// and a tenth (trading: processing, polls, expiry; webhooks: deliveries and
// observation windows)). Printed per area and
// target: the cases, their rate, and that rate as a ratio of the clean
// reference's in the same run (what the variant or condition costs
// exploration), and every finding; any finding fails the bench.
import { exploreSeeds, specificityTargets, withReference, type AboveReview, type ProofTarget } from '../test/support/explore-proof.ts';
import { AREA_MODELS } from '../explore/areas/index.ts';
import { endWithBudgets } from './support/figures.ts';

const SEEDS = Number(process.env.PTAS_BENCH_SEEDS ?? 100);
const CASES = Number(process.env.PTAS_BENCH_CASES ?? 40);
const AREAS = process.env.PTAS_BENCH_AREAS?.split(',');
const SCALE: Record<string, number> = { auth: 0.25, trading: 0.1, webhooks: 0.1 };
/** Targets explored side by side (PTAS_BENCH_AT_ONCE): most of a case is waiting for the target. */
const AT_ONCE = Number(process.env.PTAS_BENCH_AT_ONCE ?? 8);
/**
 * This process's share of the targets (PTAS_BENCH_SHARD=K/N: every Nth from
 * the Kth). One bench process explores on one core, so a CPU-bound area
 * (auth: the references run in-process) takes both cores as two shards.
 */
const [SHARD, SHARDS] = (process.env.PTAS_BENCH_SHARD ?? '1/1').split('/').map(Number) as [number, number];
if (!(Number.isInteger(SHARD) && Number.isInteger(SHARDS) && SHARD >= 1 && SHARD <= SHARDS)) throw new Error(`PTAS_BENCH_SHARD must be K/N with 1 <= K <= N, not ${process.env.PTAS_BENCH_SHARD}`);
const seeds = Array.from({ length: SEEDS }, (_, i) => 1000 + i);

const above: Array<AboveReview & { target: string }> = [];
let total = 0;
const started = performance.now();
for (const model of AREA_MODELS.filter((m) => !AREAS || AREAS.includes(m.area))) {
  const cases = Math.max(1, Math.round(CASES * (SCALE[model.area] ?? 1)));
  // Every shard explores the clean reference too: its rate is the baseline of the shard's ratios.
  const targets = specificityTargets().filter((t, i) => t.name === 'clean' || i % SHARDS === SHARD - 1);
  console.log(`explore-specificity ${model.area}: ${SEEDS} seeds of ${cases} cases per target, ${targets.length} targets${SHARDS > 1 ? ` (shard ${SHARD}/${SHARDS})` : ''}`);
  const rates = new Map<string, number>();
  const lines: string[] = [];
  const queue: ProofTarget[] = [...targets];
  await Promise.all(
    Array.from({ length: AT_ONCE }, async () => {
      for (let target = queue.shift(); target; target = queue.shift()) {
        const explored = await withReference(target, (t) => exploreSeeds(t, seeds, { maxCases: cases, models: [model], concurrency: 1 }));
        rates.set(target.name, explored.cases / (explored.ms / 1000));
        total += explored.cases;
        above.push(...explored.above.map((a) => ({ ...a, target: target!.name })));
        const found = explored.above.length ? `  ${explored.above.length} ABOVE REVIEW` : '';
        lines.push(`${target.kind}\t${target.name}\t${explored.cases}${found}`);
        // A long bench shows how far it is, and what it found so far, as each target ends.
        console.log(`  … ${lines.length}/${targets.length} targets of ${model.area} done (${target.name}: ${explored.cases} cases${found})`);
        for (const a of explored.above) console.log(`    ${target.name} seed ${a.seed}: ${a.verdict} ${a.check}: ${a.reason}`);
      }
    }),
  );
  const clean = rates.get('clean')!;
  for (const line of lines.sort()) {
    const [kind, name, cases, found] = line.split('\t');
    console.log(`  ${`${kind} ${name}`.padEnd(48)} ${cases!.padStart(6)} cases  ${rates.get(name!)!.toFixed(1).padStart(7)}/s  ×${(rates.get(name!)! / clean).toFixed(2)} of clean${found ?? ''}`);
  }
}
console.log(`explore-specificity: ${total} cases in ${((performance.now() - started) / 1000).toFixed(0)} s; findings above REVIEW: ${above.length}`);
for (const a of above) console.log(`  ${a.target} seed ${a.seed}: ${a.verdict} ${a.check}: ${a.reason}`);
endWithBudgets([above.length > 0 && `${above.length} finding(s) above REVIEW on a correct reference`]);
