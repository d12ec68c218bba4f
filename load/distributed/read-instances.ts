// The inputs of `ptas load merge DIR|FILE...`: instance results (JSON, from
// `ptas load --instances N` or written by hand from a run), and directories
// holding them — or holding the runners' collected points and the
// ptas-load-plan.json of `ptas load k6-operator`, which says each runner's
// segment. A runner's points are checked against its index (k6-operator
// tags every point instance_id=N), so files swapped between runners are
// refused rather than merged under the wrong segment.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { RESULT_FORMAT, type NormalizedRun } from '../result/normalized.ts';
import { instanceFromPoints } from '../k6-runner/points-instance.ts';
import { isPlanFile, PLAN_FILE, type LoadPlanFile } from '../k6-operator/plan-file.ts';
import type { NamedRun } from './compatible.ts';
import { LoadMergeRefused } from './refused.ts';

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch (error) {
    throw new LoadMergeRefused(`${file}: not readable as JSON (${(error as Error).message})`);
  }
}

const isResult = (data: unknown): data is NormalizedRun => typeof data === 'object' && data !== null && (data as { format?: unknown }).format === RESULT_FORMAT;

/** A normalized result, or the one a `ptas load` result file holds (its "result"). */
function resultIn(data: unknown): NormalizedRun | undefined {
  if (isResult(data)) return data;
  const inner = typeof data === 'object' && data !== null ? (data as { result?: unknown }).result : undefined;
  return isResult(inner) ? inner : undefined;
}

/** An input read: the run, and the file it came from (a file given twice is refused). */
type Read = NamedRun & { file: string };

/** The runners of a k6-operator run, from their collected points. */
async function fromPlan(planPath: string, plan: LoadPlanFile): Promise<Read[]> {
  const dir = path.dirname(planPath);
  const missing = plan.runners.filter((r) => !existsSync(path.join(dir, r.file)));
  if (missing.length) {
    throw new LoadMergeRefused(
      `runner points missing beside ${planPath}: ${missing.map((r) => `${r.file} (runner ${r.index}, segment ${r.segment})`).join(', ')}; ` +
        `collect them with ${path.join(dir, 'collect.sh')} (kubectl logs job/${plan.testRun.name}-N)`,
    );
  }
  const runs: Read[] = [];
  for (const runner of plan.runners) {
    const file = path.join(dir, runner.file);
    const { run, instanceIds } = await instanceFromPoints(file, plan.scenario, { ...plan.info, segment: runner.segment, sequence: plan.sequence });
    if (run.phases.length === 0) throw new LoadMergeRefused(`${file} holds no points of the scenario: is it runner ${runner.index}'s log (kubectl logs job/${plan.testRun.name}-${runner.index})?`);
    if (instanceIds.length && (instanceIds.length > 1 || instanceIds[0] !== String(runner.index))) {
      throw new LoadMergeRefused(`${file} holds the points of runner ${instanceIds.join(', ')} (instance_id), not of runner ${runner.index}: its segment would be wrong`);
    }
    runs.push({ name: `${file} (runner ${runner.index})`, run, file });
  }
  return runs;
}

async function fromDirectory(dir: string): Promise<Read[]> {
  const plan = path.join(dir, PLAN_FILE);
  const runs: Read[] = [];
  if (existsSync(plan)) runs.push(...(await fromFile(plan)));
  for (const name of readdirSync(dir).sort()) {
    if (name === PLAN_FILE || !name.endsWith('.json')) continue;
    const file = path.join(dir, name);
    const run = resultIn(readJson(file));
    // Other JSON beside the instances (a merged result written there before) is not an input.
    if (run?.instance) runs.push({ name: file, run, file });
  }
  if (runs.length === 0) throw new LoadMergeRefused(`${dir}: no instance results (*.json) and no ${PLAN_FILE} with collected runner points`);
  return runs;
}

async function fromFile(file: string): Promise<Read[]> {
  if (file.endsWith('.ndjson')) {
    throw new LoadMergeRefused(`${file}: k6 points say nothing of the segment or plan they ran; give the directory with the ${PLAN_FILE} written by \`ptas load k6-operator\``);
  }
  const data = readJson(file);
  if (isPlanFile(data)) return fromPlan(file, data);
  const run = resultIn(data);
  if (run) return [{ name: file, run, file }];
  throw new LoadMergeRefused(`${file}: neither a ptas load instance result nor a ${PLAN_FILE}`);
}

export async function readInstances(inputs: string[]): Promise<NamedRun[]> {
  const runs: Read[] = [];
  for (const input of inputs) {
    if (!existsSync(input)) throw new LoadMergeRefused(`${input}: no such file or directory`);
    runs.push(...(statSync(input).isDirectory() ? await fromDirectory(input) : await fromFile(input)));
  }
  const seen = new Set<string>();
  for (const r of runs) {
    if (seen.has(path.resolve(r.file))) throw new LoadMergeRefused(`${r.file} given twice`);
    seen.add(path.resolve(r.file));
  }
  return runs.map(({ name, run }) => ({ name, run }));
}
