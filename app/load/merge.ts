// `ptas load merge DIR|FILE...`: the instance results of a distributed load
// run — from `ptas load --instances N`, or the k6-operator runners' points
// collected beside their ptas-load-plan.json — added into one normalized
// result and judged once by the analysis every `ptas load` run gets.
// Instances that are not the parts of one run are refused (exit 2).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { mergeInstances, type MergedRun } from '../../load/distributed/merge.ts';
import { readInstances } from '../../load/distributed/read-instances.ts';
import { analyzeRun } from '../../load/probes/analyze.ts';
import { exitCodeOfVerdict, type LoadCommandOutcome, type Verdict } from './verdict.ts';
import { judgedData, showJudged } from './present.ts';

export interface LoadMergeOptions {
  inputs: string[];
  /** JSON file for the merged result (default ptas-load/<scenario>-merged.json). */
  out?: string;
  output: NodeJS.WritableStream;
}

/** The merged run judged: shown on the terminal, and what its result file keeps. */
export function judgeMerged(merged: MergedRun, out: NodeJS.WritableStream): { verdict: Verdict; data: Record<string, unknown> } {
  const { run, kind, criteria, instances } = merged;
  const judged = analyzeRun(run, kind, criteria);
  out.write(`ptas load: merged ${instances.length} instances (${instances.map((i) => i.run.instance.segment).join(', ')})\n`);
  showJudged(out, run, judged);
  const staircase = criteria ? { capRps: criteria.capRps, expectedRps: criteria.expectedRps } : undefined;
  return {
    verdict: { verdict: judged.verdict, reason: judged.reason, ...(judged.judgedBy ? { judgedBy: judged.judgedBy } : {}) },
    data: { ...judgedData(run, judged, instances[0]!.run.instance.operation, staircase), instances: run.mergedFrom },
  };
}

export async function ptasLoadMerge(options: LoadMergeOptions): Promise<LoadCommandOutcome> {
  const merged = mergeInstances(await readInstances(options.inputs));
  const { verdict, data } = judgeMerged(merged, options.output);
  options.output.write(`ptas load: ${verdict.verdict} ${verdict.reason}\n`);
  const info = merged.instances[0]!.run.instance;
  const file = path.resolve(options.out ?? path.join('ptas-load', `${merged.run.scenario}-merged.json`));
  mkdirSync(path.dirname(file), { recursive: true });
  const body = { scenario: merged.run.scenario, engine: merged.run.engine, target: info.target, startedAt: merged.run.startedAt, ...verdict, ...data };
  writeFileSync(file, JSON.stringify(body, null, 2) + '\n');
  options.output.write(`ptas load: merged result written to ${file}\n`);
  return { ...verdict, file, exitCode: exitCodeOfVerdict(verdict) };
}
