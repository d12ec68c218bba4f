// Before instances are added up: are they parts of one run? The same
// scenario, target, engine, plan (phases, thresholds, criteria) and segment
// sequence, with segments that cover the whole run exactly once. Every
// problem is named with the instances it concerns.
import type { InstanceInfo } from '../result/instance.ts';
import type { NormalizedRun } from '../result/normalized.ts';
import { coverageProblems } from './coverage.ts';
import { LoadMergeRefused } from './refused.ts';
import { parseSegment } from './segment.ts';

export type InstanceRun = NormalizedRun & { instance: InstanceInfo };

export interface NamedRun {
  /** How the user knows it: its file. */
  name: string;
  run: NormalizedRun;
}

export interface NamedInstance {
  name: string;
  run: InstanceRun;
}

/** "a.json, b.json (x); c.json (y)" when the instances disagree on a property, else undefined. */
function disagreement(instances: NamedInstance[], property: (i: NamedInstance) => string, show: (value: string) => string = (v) => v): string | undefined {
  const groups = new Map<string, string[]>();
  for (const i of instances) groups.set(property(i), [...(groups.get(property(i)) ?? []), i.name]);
  if (groups.size < 2) return undefined;
  return [...groups].map(([value, names]) => `${names.join(', ')} (${show(value)})`).join('; ');
}

/** The instances, checked to be the parts of one run; throws LoadMergeRefused naming every problem. */
export function checkInstances(given: NamedRun[]): NamedInstance[] {
  if (given.length === 0) throw new LoadMergeRefused('no instance results to merge');
  const notInstances = given.filter((g) => !g.run.instance);
  if (notInstances.length) {
    throw new LoadMergeRefused(
      `not the result of one instance of a distributed run (no execution segment): ${notInstances.map((g) => g.name).join(', ')}; ` +
        'instances come from `ptas load --instances N` or the k6 runners of `ptas load k6-operator`',
    );
  }
  const instances = given as NamedInstance[];
  const problems: string[] = [];
  const differ = (what: string, property: (i: NamedInstance) => string, show?: (value: string) => string) => {
    const found = disagreement(instances, property, show);
    if (found) problems.push(`instances of different ${what}: ${found}`);
  };
  differ('scenarios', (i) => i.run.scenario);
  differ('targets', (i) => i.run.instance.target);
  differ('engines', (i) => i.run.engine);
  if (problems.length === 0) {
    const plan = (i: NamedInstance) => JSON.stringify({ plan: i.run.instance.plan, thresholds: i.run.instance.thresholds, criteria: i.run.instance.criteria ?? null });
    differ('plans (the same scenario with other caps, rates or thresholds)', plan, () => 'its own plan');
  }
  differ('segment sequences (their segments cannot be matched up)', (i) => i.run.instance.sequence);
  const withoutLatency = instances.filter((i) => i.run.phases.some((p) => p.sent > 0 && !p.histograms));
  if (withoutLatency.length) problems.push(`no latency histograms in ${withoutLatency.map((i) => i.name).join(', ')}: their percentiles cannot be added up`);
  try {
    problems.push(...coverageProblems(instances.map((i) => ({ name: i.name, segment: parseSegment(i.run.instance.segment) }))));
  } catch (error) {
    problems.push((error as Error).message);
  }
  if (problems.length) throw new LoadMergeRefused(`ptas load merge refused:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  return instances;
}
