// `ptas load --instances N`: the scenario on N generators — local k6
// processes or embedded-engine processes — each with its execution segment,
// started together and merged at the end by the code `ptas load merge`
// runs, then judged by the one analysis. The instances' own results are kept
// beside the merged one, so `ptas load merge` can be run on them again.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Target } from '../run/target.ts';
import { runEmbeddedInstances } from '../../load/distributed/embedded-instances.ts';
import type { NamedRun } from '../../load/distributed/compatible.ts';
import { mergeInstances } from '../../load/distributed/merge.ts';
import { runK6Instances } from '../../load/k6-runner/instances.ts';
import { findK6, K6_SCRIPTS } from '../../load/k6-runner/run-k6.ts';
import type { RateLimitCriteria } from '../../load/probes/rate-limit/analysis.ts';
import type { InstanceInfo } from '../../load/result/instance.ts';
import type { LoadScenario } from '../../load/scenarios/types.ts';
import { secretRedactor } from '../../src/http/connection.ts';
import type { LoadCommandOptions } from './options.ts';
import { judgeMerged } from './merge.ts';
import type { Verdict } from './verdict.ts';

export interface DistributedInput {
  scenario: LoadScenario;
  target: Pick<Target, 'profile' | 'connection'>;
  /** A staircase's criteria (cap, documented limit), carried by every instance. */
  criteria: RateLimitCriteria;
  instances: number;
  /** Directory the instance results are written to (replaced). */
  keepInstancesIn: string;
  options: LoadCommandOptions;
}

/** The criteria an instance carries (the operation is the instance's own). */
function staircaseCriteria({ operation: _operation, ...criteria }: RateLimitCriteria): NonNullable<InstanceInfo['criteria']> {
  return criteria;
}

/** What every instance shares: the plan at full size, the target, thresholds and criteria. */
export function sharedInfo(scenario: LoadScenario, target: string, criteria: RateLimitCriteria | undefined): Omit<InstanceInfo, 'segment' | 'sequence'> {
  return {
    target,
    kind: scenario.kind,
    operation: scenario.operation,
    plan: scenario.scenarios,
    thresholds: scenario.thresholds,
    ...(scenario.kind === 'rate-breakpoint' && criteria ? { criteria: staircaseCriteria(criteria) } : {}),
  };
}

async function launch(input: DistributedInput): Promise<NamedRun[]> {
  const { scenario, target, options } = input;
  const info = sharedInfo(scenario, target.profile.baseUrl, input.criteria);
  if (options.engine === 'k6') {
    const { runs } = await runK6Instances({
      binary: findK6()!,
      script: K6_SCRIPTS.arrivalRate,
      scenario: scenario.name,
      profile: target.profile,
      overrides: options.overrides,
      maxInFlight: options.maxInFlight,
      connection: target.connection,
      instances: input.instances,
      info,
      output: options.output,
      signal: options.signal,
    });
    return runs;
  }
  return runEmbeddedInstances({ instances: input.instances, scenario, profile: target.profile, info, maxInFlight: options.maxInFlight, output: options.output, signal: options.signal });
}

export async function onDistributed(input: DistributedInput): Promise<{ verdict: Verdict; data: Record<string, unknown> }> {
  const runs = await launch(input);
  // The instances' results, secret-free, where `ptas load merge` can take them again.
  const redactor = secretRedactor(input.target.connection);
  rmSync(input.keepInstancesIn, { recursive: true, force: true });
  mkdirSync(input.keepInstancesIn, { recursive: true });
  for (const [i, r] of runs.entries()) writeFileSync(path.join(input.keepInstancesIn, `instance-${i + 1}.json`), JSON.stringify(redactor.redactJson(r.run)) + '\n');
  input.options.output.write(`ptas load: the ${runs.length} instance results are in ${input.keepInstancesIn} (ptas load merge takes them)\n`);
  const merged = mergeInstances(runs);
  const judged = judgeMerged(merged, input.options.output);
  return { verdict: judged.verdict, data: { ...judged.data } };
}
