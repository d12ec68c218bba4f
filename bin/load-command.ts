// `ptas load`: run one load scenario (a 429 breakpoint, the 413 boundary or
// a load profile) on the embedded engine or on k6.
import type { Argv, CommandModule } from 'yargs';
import { connectionOptions, fail, profileFrom, type ConnectionArgs } from './connection.ts';
import { ConfigError } from '../src/config/errors.ts';
import { listScenarios, ptasLoad } from '../app/load/run-load.ts';

interface LoadArgs extends ConnectionArgs {
  scenario?: string;
  list?: boolean;
  engine: 'embedded' | 'k6';
  fault?: string[];
  maxRps?: number;
  duration?: number;
  rate?: number;
  expectedRps?: number;
  inFlight?: number;
  out?: string;
}

export const loadCommand: CommandModule<object, LoadArgs> = {
  command: 'load',
  describe: 'Run one load scenario (429 breakpoint, 413 boundary, or a smoke/average-load/stress/spike/soak profile) on the embedded engine or k6',
  builder: (y: Argv) =>
    connectionOptions(y)
      .option('scenario', { alias: 's', type: 'string', describe: 'Scenario name (see --list)' })
      .option('list', { type: 'boolean', describe: 'List the scenarios and exit' })
      .option('engine', { choices: ['embedded', 'k6'] as const, default: 'embedded' as const, describe: 'embedded (no install) or k6 (PTAS_K6, else k6 on PATH)' })
      .option('fault', { type: 'string', array: true, describe: 'Inject a fault into the bundled reference (repeatable)' })
      .option('max-rps', { type: 'number', describe: 'Cap: never offer more requests per second (off loopback: with --duration, unless load.caps is set)' })
      .option('duration', { type: 'number', describe: 'Cap: never run longer than this many seconds (profiles shrink their stages to fit)' })
      .option('rate', { type: 'number', describe: 'Target rate of a profile scenario (default: 30 % of the expected limit)' })
      .option('expected-rps', { type: 'number', describe: 'The rate limit the implementation documents (aims the breakpoint staircase)' })
      .option('in-flight', { type: 'number', describe: 'Most requests in flight at once (k6: maxVUs)' })
      .option('out', { alias: 'o', type: 'string', describe: 'JSON file for the result (default ptas-load/<scenario>.json)' })
      .check((args) => {
        if (!args.list && !args.scenario) throw new ConfigError('name a scenario with --scenario (or --list them)');
        return true;
      })
      .example('$0 load --scenario token-rate-breakpoint', "Find the token endpoint's rate limit on the bundled reference")
      .example('$0 load -s user-details-stress -c profile.json --max-rps 200 --duration 120', 'Stress user details on a partner sandbox within caps')
      .example('$0 load -s token-rate-breakpoint --engine k6 -c profile.json', 'The same staircase on your own k6')
      .epilog(
        'The k6 scripts are load/k6/arrival-rate.ts and load/k6/body-size-boundary.ts (k6 ≥ 0.57 runs TypeScript as is).\n' +
          'Exit codes: 0 PASS or INCONCLUSIVE, 1 FAIL, 2 usage or config error, 3 target unreachable, 4 internal error.',
      ) as unknown as Argv<LoadArgs>,
  handler: async (args) => {
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
        overrides: { capRps: args.maxRps, maxDurationSec: args.duration, targetRps: args.rate, expectedRps: args.expectedRps },
        maxInFlight: args.inFlight,
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
