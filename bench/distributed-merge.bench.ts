// Distributed load runs merged (issue 24), proved on this machine with the
// embedded engine: the 429 staircase (k6's static plan, as every instance of
// a distributed run runs it) against the reference, on one process and on
// four processes split by execution segment, alternately, merged by the code
// of `ptas load merge`. Targets:
//   - merged counts exact: in every step, the instances' arrivals add up to
//     the plan's (none lost or sent twice by the split) and the merged
//     answers by outcome to the instances' raw samples pooled;
//   - merged p50/p99/p99.9, per step and over the run, equal the pooled raw
//     samples' within the histogram's precision (the same HDR bucket:
//     3 significant digits, at most 0.1 % apart);
//   - the four-instance runs find the same 429 onset as the one-instance
//     runs, and a limit estimate within ±5 % of theirs (medians of the
//     alternating runs, so a stall of the shared machine in one run does
//     not decide the comparison).
// The reference's token limit is raised from 200 to LIMIT req/s, which one
// process still reaches (the staircase climbs to 4 × LIMIT). A run whose
// generator did not hold the plan (a starved machine) is run again.
//
//   npm run bench -- distributed-merge
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { spawnReference, type ReferenceProcess } from '../app/run/reference-process.ts';
import { rateLimitCriteria } from '../app/load/criteria.ts';
import { sharedInfo } from '../app/load/distributed.ts';
import { runEmbeddedInstances } from '../load/distributed/embedded-instances.ts';
import type { InstanceRun } from '../load/distributed/compatible.ts';
import { mergeInstances } from '../load/distributed/merge.ts';
import { mergePhases } from '../load/distributed/merge-phases.ts';
import type { AnswerSample } from '../load/engine/options.ts';
import { merged as addedUp, newHistogram, type Histogram } from '../load/engine/histogram.ts';
import { plannedArrivals } from '../load/engine/schedule.ts';
import { analyzeRun } from '../load/probes/analyze.ts';
import type { NormalizedRun } from '../load/result/normalized.ts';
import { scenarioByName } from '../load/scenarios/index.ts';
import { scenarioParams } from '../load/scenarios/params.ts';
import type { LoadScenario } from '../load/scenarios/types.ts';
import { OUTCOMES } from '../load/scenarios/metrics.ts';
import { referenceProfile } from '../reference/profile.ts';
import { median } from './support/figures.ts';

const LIMIT = 400;
const BURST = 80;
const PAIRS = 3;
const MAX_ATTEMPTS = 3;
const LIMIT_TOLERANCE = 0.05;
const PERCENTILES = [50, 99, 99.9];

const load = () => os.loadavg()[0]!.toFixed(2);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const quiet = new Writable({ write: (_c, _e, done) => done() });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Run {
  instances: number;
  merged: NormalizedRun;
  onsetRps?: number;
  limitRps?: number;
  method?: string;
  verdict: string;
  parts: InstanceRun[];
  raw: AnswerSample[];
  load: string;
}

interface Check {
  what: string;
  ok: boolean;
  line: string;
}

function readRaw(dir: string): AnswerSample[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.samples.ndjson'))
    .flatMap((f) => readFileSync(path.join(dir, f), 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as AnswerSample));
}

async function staircase(reference: ReferenceProcess, scenario: LoadScenario, instances: number, criteria: ReturnType<typeof rateLimitCriteria>): Promise<Run> {
  const profile = referenceProfile(reference.url, reference.options);
  for (let attempt = 1; ; attempt++) {
    const rawDir = mkdtempSync(path.join(os.tmpdir(), 'ptas-bench-raw-'));
    try {
      const named = await runEmbeddedInstances({ instances, scenario, profile, info: sharedInfo(scenario, reference.url, criteria), output: quiet, rawSamplesDir: rawDir });
      const merged = mergeInstances(named);
      const judged = analyzeRun(merged.run, merged.kind, merged.criteria);
      const run: Run = {
        instances,
        merged: merged.run,
        onsetRps: judged.rateLimit?.onsetRps,
        limitRps: judged.rateLimit?.estimatedLimitRps,
        method: judged.rateLimit?.estimateMethod,
        verdict: judged.verdict,
        parts: named.map((n) => n.run as InstanceRun),
        raw: readRaw(rawDir),
        load: load(),
      };
      const held = !merged.run.generator.saturated;
      const requests = merged.run.phases.reduce((s, p) => s + p.sent, 0);
      console.log(
        `  ${instances} instance${instances > 1 ? 's' : ' '}  ${run.verdict}  onset ${run.onsetRps ?? '-'} req/s  limit ${run.limitRps ?? '-'} req/s (${run.method ?? '-'})  ` +
          `${fmt(requests)} requests  load ${run.load}${held ? '' : `  generator did not hold the plan: ${merged.run.generator.reason}${attempt < MAX_ATTEMPTS ? ' — again' : ''}`}`,
      );
      // Let the bucket fill again before the next run.
      await sleep((BURST / LIMIT) * 1000 + 1000);
      if (held || attempt >= MAX_ATTEMPTS) return run;
    } finally {
      rmSync(rawDir, { recursive: true, force: true });
    }
  }
}

/** The top of the histogram bucket a value falls in (what a percentile in that bucket reads as). */
function bucketTop(us: number): number {
  const one = newHistogram();
  one.recordValue(us);
  const top = one.getValueAtPercentile(100);
  one.destroy();
  return top;
}

/** The raw samples' percentile as HdrHistogram ranks it (nearest rank), and the merged histogram's. */
function percentileCheck(label: string, histogram: Histogram, rawUs: number[], lines: string[]): boolean {
  const sorted = [...rawUs].sort((a, b) => a - b);
  let ok = true;
  const cells = PERCENTILES.map((p) => {
    const rank = Math.max(1, Math.ceil((p / 100) * sorted.length - 1e-9));
    const raw = sorted[rank - 1]!;
    const value = histogram.getValueAtPercentile(p);
    const same = value === bucketTop(raw);
    ok &&= same;
    return `p${p} ${fmt(value)} vs ${fmt(raw)}${same ? '' : ' DIFFERENT BUCKET'}`;
  });
  lines.push(`    ${label.padEnd(14)} n=${fmt(sorted.length).padStart(6)}  ${cells.join('   ')}`);
  return ok;
}

/** Percentiles and counts of one four-instance run against its instances' raw samples. */
function exactness(run: Run, lines: string[]): { percentilesOk: boolean; countsOk: boolean; averagedOffPct: number } {
  const phases = mergePhases(run.parts);
  let percentilesOk = true;
  let countsOk = true;
  let averagedOffPct = 0;
  for (const phase of phases) {
    const raw = run.raw.filter((s) => s.phase === phase.name);
    const all = addedUp(phase.histograms.values());
    percentilesOk &&= percentileCheck(phase.name, all, raw.map((s) => s.latencyUs), lines);
    // What averaging the instances' p99s (all a summary gives) would have said instead.
    const p99s = run.parts.flatMap((r) => r.phases.filter((p) => p.name === phase.name && p.latency.all).map((p) => p.latency.all!.p99Ms * 1000));
    const averaged = p99s.reduce((s, x) => s + x, 0) / Math.max(1, p99s.length);
    averagedOffPct = Math.max(averagedOffPct, Math.abs(averaged / all.getValueAtPercentile(99) - 1) * 100);
    all.destroy();
    const executor = run.parts[0]!.instance.plan[phase.name]!;
    const arrivals = phase.result.sent + phase.result.dropped;
    const byOutcome = OUTCOMES.every((o) => phase.answers[o] === raw.filter((s) => s.outcome === o).length);
    const sum = run.parts.reduce((s, r) => s + (r.phases.find((p) => p.name === phase.name)?.sent ?? 0), 0);
    const exact = arrivals === plannedArrivals(executor) && byOutcome && sum === phase.result.sent;
    countsOk &&= exact;
    lines.push(`    ${''.padEnd(14)} arrivals ${fmt(arrivals)} of ${fmt(plannedArrivals(executor))} planned; answers = pooled samples by outcome: ${byOutcome ? 'yes' : 'NO'}${exact ? '' : '  NOT EXACT'}`);
  }
  const whole = addedUp(phases.flatMap((p) => [...p.histograms.values()]));
  percentilesOk &&= percentileCheck('whole run', whole, run.raw.map((s) => s.latencyUs), lines);
  whole.destroy();
  for (const p of phases) for (const h of p.histograms.values()) h.destroy();
  return { percentilesOk, countsOk, averagedOffPct };
}

const started = performance.now();
console.log(`distributed-merge: ${os.availableParallelism()} cores, load average ${load()} at start (shared machine: figures move with it)`);
const reference = await spawnReference({ tokenRatePerSecond: LIMIT, tokenBurst: BURST });
const checks: Check[] = [];
try {
  const profile = referenceProfile(reference.url, reference.options);
  const entry = scenarioByName('token-rate-breakpoint')!;
  const params = scenarioParams('token', profile, {});
  const scenario = entry.build(params, {}) as LoadScenario;
  const criteria = rateLimitCriteria(entry, profile, {}, params);
  console.log(
    `reference token limit ${LIMIT} req/s, burst ${BURST}; k6's static staircase ${(scenario.steps ?? []).map((s) => `${s.rate}`).join(', ')} req/s ` +
      `(the last: recovery); ${PAIRS} pairs of runs, one instance then four:`,
  );
  const runs: Run[] = [];
  for (let pair = 0; pair < PAIRS; pair++) {
    runs.push(await staircase(reference, scenario, 1, criteria));
    runs.push(await staircase(reference, scenario, 4, criteria));
  }
  const one = runs.filter((r) => r.instances === 1);
  const four = runs.filter((r) => r.instances === 4);

  console.log('\nfour-instance runs: merged histograms against the pooled raw samples of the instances (µs; merged vs raw):');
  let percentilesOk = true;
  let countsOk = true;
  let averagedOff = 0;
  for (const [i, run] of four.entries()) {
    const lines: string[] = [`  run ${i + 1}:`];
    const e = exactness(run, lines);
    percentilesOk &&= e.percentilesOk;
    countsOk &&= e.countsOk;
    averagedOff = Math.max(averagedOff, e.averagedOffPct);
    console.log(lines.join('\n'));
  }
  checks.push({ what: 'merged counts exact', ok: countsOk, line: `in every step of ${four.length} four-instance runs: arrivals = plan, answers by outcome = the pooled raw samples` });
  checks.push({
    what: 'merged p50/p99/p99.9 = pooled raw',
    ok: percentilesOk,
    line: `every step and the whole run, within the histogram's precision (the same bucket: ≤ 0.1 %); averaging the instances' p99 instead would be off by up to ${averagedOff.toFixed(1)} %`,
  });
  const onsets = (rs: Run[]) => rs.map((r) => r.onsetRps ?? 'none');
  const sameOnset = new Set([...onsets(one), ...onsets(four)]).size === 1 && one[0]!.onsetRps !== undefined;
  checks.push({ what: '429 onset', ok: sameOnset, line: `1 instance: ${onsets(one).join(', ')} req/s; 4 instances: ${onsets(four).join(', ')} req/s` });
  const estimates = (rs: Run[]) => rs.map((r) => r.limitRps).filter((x): x is number => x !== undefined);
  const ratio = estimates(four).length && estimates(one).length ? median(estimates(four)) / median(estimates(one)) : NaN;
  checks.push({
    what: 'limit estimate',
    ok: Math.abs(ratio - 1) <= LIMIT_TOLERANCE,
    line:
      `median of 4 instances ${median(estimates(four))} / median of 1 instance ${median(estimates(one))} req/s = ${ratio.toFixed(3)} (±${LIMIT_TOLERANCE * 100} %); ` +
      `runs: 1 → ${estimates(one).join(', ')}; 4 → ${estimates(four).join(', ')}; the reference is set to ${LIMIT}`,
  });
  const unheld = runs.filter((r) => r.merged.generator.saturated).length;
  if (unheld) console.log(`\nnote: ${unheld} run(s) kept although the generator did not hold the plan after ${MAX_ATTEMPTS} attempts`);
} finally {
  await reference.stop();
}
console.log(`\nsummary (load average ${load()} at the end, ${((performance.now() - started) / 1000).toFixed(0)} s):`);
for (const c of checks) console.log(`  ${c.what}: ${c.ok ? 'met' : 'NOT met'} — ${c.line}`);
if (checks.length < 4 || checks.some((c) => !c.ok)) process.exitCode = 1;
