// `ptas load`: run one load scenario (a 429 breakpoint, the 413 boundary or
// a load profile) on the embedded engine or on k6 — on one generator, or on
// several split by execution segment (--instances) — and its two
// subcommands for distributed runs: `ptas load merge` (instance results into
// one judged result) and `ptas load k6-operator` (manifests for a run on
// Kubernetes).
import type { Argv, CommandModule } from 'yargs';
import { connectionOptions, fail, profileFrom, type ConnectionArgs } from './connection.ts';
import { ConfigError } from '../src/config/errors.ts';

interface CapArgs {
  maxRps?: number;
  duration?: number;
  rate?: number;
  expectedRps?: number;
  inFlight?: number;
}

interface LoadArgs extends ConnectionArgs, CapArgs {
  scenario?: string;
  list?: boolean;
  engine: 'embedded' | 'k6';
  instances: number;
  fault?: string[];
  out?: string;
}

interface MergeArgs {
  inputs: string[];
  out?: string;
}

interface OperatorArgs extends ConnectionArgs, CapArgs {
  scenario: string;
  parallelism: number;
  out: string;
  name?: string;
  namespace?: string;
  secretName?: string;
  secretKey?: string;
  image?: string;
}

function capOptions<T>(y: Argv<T>) {
  return y
    .option('max-rps', { type: 'number', describe: 'Cap: never offer more requests per second (off loopback: with --duration, unless load.caps is set)' })
    .option('duration', { type: 'number', describe: 'Cap: never run longer than this many seconds (profiles shrink their stages to fit)' })
    .option('rate', { type: 'number', describe: 'Target rate of a profile scenario (default: 30 % of the expected limit)' })
    .option('expected-rps', { type: 'number', describe: 'The rate limit the implementation documents (aims the breakpoint staircase)' })
    .option('in-flight', { type: 'number', describe: 'Most requests in flight at once (k6: maxVUs)' });
}

const overridesOf = (args: CapArgs) => ({ capRps: args.maxRps, maxDurationSec: args.duration, targetRps: args.rate, expectedRps: args.expectedRps });

const mergeCommand: CommandModule<object, MergeArgs> = {
  command: 'merge <inputs..>',
  describe: 'Merge the instance results of a distributed load run into one result, and judge it',
  builder: (y: Argv) =>
    y
      .positional('inputs', { type: 'string', array: true, demandOption: true, describe: 'Instance results (*.json), or directories of them, or a k6-operator directory (ptas-load-plan.json and runner-N.ndjson)' })
      .option('out', { alias: 'o', type: 'string', describe: 'JSON file for the merged result (default ptas-load/<scenario>-merged.json)' })
      .example('$0 load merge ptas-load/token-rate-breakpoint.instances', 'Merge again the instances of a `ptas load --instances N` run')
      .example('$0 load merge k6-run/', 'Merge the runners of a k6-operator run, once collect.sh has collected their points')
      .epilog(
        'Counts are added per step and outcome and latency histograms are added, so percentiles are exact, not averaged. ' +
          'Instances of different scenarios, targets, plans or engines, or whose segments overlap or leave a part missing, are refused. ' +
          'A threshold over zero samples is ERROR.\n' +
          'Exit codes: 0 PASS or INCONCLUSIVE, 1 FAIL, 2 refused (the problems are named) or usage error, 5 ERROR.',
      ) as unknown as Argv<MergeArgs>,
  handler: async (args) => {
    try {
      const { ptasLoadMerge } = await import('../app/load/merge.ts');
      const outcome = await ptasLoadMerge({ inputs: args.inputs, out: args.out, output: process.stdout });
      process.exitCode = outcome.exitCode;
    } catch (error) {
      fail(error);
    }
  },
};

const k6OperatorCommand: CommandModule<object, OperatorArgs> = {
  command: 'k6-operator',
  describe: 'Write the k6-operator manifests (ConfigMap, TestRun) of a distributed run, and the script that collects and merges it',
  builder: (y: Argv) =>
    capOptions(connectionOptions(y))
      .option('scenario', { alias: 's', type: 'string', demandOption: true, describe: 'Scenario name (see ptas load --list)' })
      .option('parallelism', { type: 'number', demandOption: true, describe: 'Runners (k6 processes), each with its --execution-segment' })
      .option('out', { alias: 'o', type: 'string', demandOption: true, describe: 'Directory for the manifests, collect.sh and ptas-load-plan.json' })
      .option('name', { type: 'string', describe: 'The TestRun\'s name (default ptas-<scenario>)' })
      .option('namespace', { type: 'string', describe: 'Kubernetes namespace (default "default")' })
      .option('secret-name', { type: 'string', describe: 'The Secret holding the client secret (default ptas-client-secret); the manifest only refers to it' })
      .option('secret-key', { type: 'string', describe: 'Its key (default client-secret)' })
      .option('image', { type: 'string', describe: "The runners' k6 image (default: k6-operator's, grafana/k6:latest)" })
      .example('$0 load k6-operator -s token-rate-breakpoint -c profile.json --max-rps 4000 --duration 60 --parallelism 4 --out k6-run', '')
      .epilog('The client secret never enters the manifests: the TestRun reads it from the Secret (env valueFrom.secretKeyRef).') as unknown as Argv<OperatorArgs>,
  handler: async (args) => {
    try {
      const { ptasLoadK6Operator } = await import('../app/load/k6-operator.ts');
      await ptasLoadK6Operator({
        scenario: args.scenario,
        profile: profileFrom(args),
        overrides: overridesOf(args),
        maxInFlight: args.inFlight,
        parallelism: args.parallelism,
        outDir: args.out,
        name: args.name,
        namespace: args.namespace,
        secretName: args.secretName,
        secretKey: args.secretKey,
        image: args.image,
        output: process.stdout,
      });
    } catch (error) {
      fail(error);
    }
  },
};

function loadOptions(y: Argv) {
  return capOptions(connectionOptions(y))
    .command(mergeCommand as unknown as CommandModule)
    .command(k6OperatorCommand as unknown as CommandModule)
    .option('scenario', { alias: 's', type: 'string', describe: 'Scenario name (see --list)' })
    .option('list', { type: 'boolean', describe: 'List the scenarios and exit' })
    .option('engine', { choices: ['embedded', 'k6'] as const, default: 'embedded' as const, describe: 'embedded (no install) or k6 (PTAS_K6, else k6 on PATH)' })
    .option('instances', { type: 'number', default: 1, describe: 'Generators, each running its --execution-segment of the scenario, started together and merged at the end (k6 processes, or embedded-engine processes)' })
    .option('fault', { type: 'string', array: true, describe: 'Inject a fault into the bundled reference (repeatable)' })
    .option('out', { alias: 'o', type: 'string', describe: 'JSON file for the result (default ptas-load/<scenario>.json)' });
}

/** yargs makes every option global; `ptas load`'s own must not reach its subcommands (yargs' global(keys, false), which @types/yargs does not declare). */
function localOnly<T>(y: Argv<T>, keys: string[]): Argv<T> {
  return (y as unknown as { global(keys: string[], global: boolean): Argv<T> }).global(keys, false);
}

const LOAD_OPTIONS = [
  ...['base-url', 'config', 'client-id', 'client-secret', 'timeout-ms', 'ca', 'cert', 'key', 'insecure'],
  ...['max-rps', 'duration', 'rate', 'expected-rps', 'in-flight'],
  ...['scenario', 'list', 'engine', 'instances', 'fault', 'out'],
];

export const loadCommand: CommandModule<object, LoadArgs> = {
  command: 'load',
  describe: 'Run one load scenario (429 breakpoint, 413 boundary, or a smoke/average-load/stress/spike/soak profile) on the embedded engine or k6, on one generator or several',
  builder: (y: Argv) =>
    localOnly(loadOptions(y), LOAD_OPTIONS)
      .check((args) => {
        if (!args.list && !args.scenario) throw new ConfigError('name a scenario with --scenario (or --list them)');
        return true;
      }, false)
      .example('$0 load --scenario token-rate-breakpoint', "Find the token endpoint's rate limit on the bundled reference")
      .example('$0 load -s user-details-stress -c profile.json --max-rps 200 --duration 120', 'Stress user details on a partner sandbox within caps')
      .example('$0 load -s token-rate-breakpoint --engine k6 -c profile.json', 'The same staircase on your own k6')
      .example('$0 load -s token-rate-breakpoint --engine k6 --instances 4 -c profile.json', 'On four local k6 processes split by --execution-segment, merged')
      .epilog(
        'The k6 scripts are load/k6/arrival-rate.ts and load/k6/body-size-boundary.ts (k6 ≥ 0.57 runs TypeScript as is). ' +
          'Beyond one machine: `ptas load k6-operator` and `ptas load merge` (load/README.md, "Beyond one machine").\n' +
          'Exit codes: 0 PASS or INCONCLUSIVE, 1 FAIL, 2 usage or config error, 3 target unreachable, 4 internal error, 5 ERROR (a threshold over zero samples).',
      ) as unknown as Argv<LoadArgs>,
  handler: async (args) => {
    // Loaded here, not at the top: every other command starts without the load engine.
    const { listScenarios, ptasLoad } = await import('../app/load/run-load.ts');
    if (args.list) {
      process.stdout.write(listScenarios());
      return;
    }
    try {
      const abort = new AbortController();
      process.once('SIGINT', () => abort.abort());
      const outcome = await ptasLoad({
        scenario: args.scenario!,
        engine: args.engine,
        profile: profileFrom(args),
        faults: args.fault,
        overrides: overridesOf(args),
        maxInFlight: args.inFlight,
        instances: args.instances,
        out: args.out,
        output: process.stdout,
        signal: abort.signal,
      });
      process.exitCode = outcome.exitCode;
    } catch (error) {
      fail(error);
    }
  },
};
