// ptas-load-plan.json: what `ptas load k6-operator` writes beside the
// manifests, so `ptas load merge DIR` can turn the runners' collected
// points (runner-N.ndjson) into instance results: the scenario, what all
// runners share (plan, target, thresholds, criteria) and which segment
// k6-operator gives runner N (pkg/segmentation: (N-1)/P:N/P of 0,1/P,…,1).
import type { InstanceInfo } from '../result/instance.ts';

export const PLAN_FILE = 'ptas-load-plan.json';
export const PLAN_FORMAT = 'ptas-load-plan';

export interface LoadPlanFile {
  format: typeof PLAN_FORMAT;
  version: 1;
  scenario: string;
  /** The TestRun's name and namespace (its runner jobs are NAME-1 … NAME-P). */
  testRun: { name: string; namespace: string };
  info: Omit<InstanceInfo, 'segment' | 'sequence'>;
  sequence: string;
  runners: Array<{ index: number; segment: string; file: string }>;
}

/** The file runner {index} (1-based) has its points collected into (collect.sh fills it in too). */
export const RUNNER_FILE = 'runner-{index}.ndjson';
export const runnerFile = (index: number | string) => RUNNER_FILE.replace('{index}', String(index));

export function isPlanFile(data: unknown): data is LoadPlanFile {
  return typeof data === 'object' && data !== null && (data as { format?: unknown }).format === PLAN_FORMAT;
}
