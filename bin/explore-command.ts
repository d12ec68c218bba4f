// `ptas explore`: generated cases from the spec's rules against a target
// (explore/), with the same target options, report, bundle and exit codes as
// `ptas run`; `--replay FILE` runs one finding's shrunk case again. And the
// --explore option `ptas run` takes (exploreRunOption), which adds a bounded
// exploration to a run.
import type { Argv, CommandModule } from 'yargs';
import { connectionOptions, fail, profileFrom, type ConnectionArgs } from './connection.ts';
import { bundleLine } from './bundle-args.ts';
import { stopOnInterrupt } from './interrupt.ts';
import { EXPLORED_AREAS } from '../explore/area-names.ts';

interface ExploreArgs extends ConnectionArgs {
  budget: number;
  seed?: number;
  area?: string[];
  cases?: number;
  replay?: string;
  out: string;
  fault?: string[];
  variant?: string[];
  condition?: string[];
}

/** "60s", "2m", "90" (seconds), "1500ms" → milliseconds. */
export function durationArgument(value: string | number | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(String(value).trim());
  const ms = match ? Number(match[1]) * { ms: 1, s: 1000, m: 60_000 }[(match[2] ?? 's') as 'ms' | 's' | 'm'] : NaN;
  if (!Number.isFinite(ms) || ms < 1000 || ms > 24 * 3600_000) throw new Error(`a duration of 1 s to 24 h, such as 60s, 2m or 90 (seconds), was expected (got ${JSON.stringify(value)})`);
  return ms;
}

function names(values: string[] | undefined): string[] | undefined {
  return values?.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
}

/** What `ptas run --explore 30s` adds to the run's options. */
export const exploreRunOption = {
  type: 'string',
  coerce: durationArgument,
  describe: 'Explore with generated cases for this long after the checks (e.g. 30s; see `ptas explore --help`); its findings are checks explore.<area>.<rule>, and a certification does not require them',
} as const;

export const exploreCommand: CommandModule<object, ExploreArgs> = {
  command: 'explore',
  describe: "Probe a target with cases generated from the spec's rules, shrink what contradicts a rule, and write the report",
  builder: (y: Argv) =>
    connectionOptions(y)
      .option('budget', { type: 'string', default: '60s', coerce: durationArgument, describe: 'How long to explore, all areas together (60s, 2m, 90)' })
      .option('seed', { type: 'number', describe: 'The seed of the generated cases (default: drawn at random, printed and recorded in the results); the same seed and target make the same cases' })
      .option('area', { type: 'string', array: true, coerce: names, describe: `Explore only these areas (NAME[,NAME]): ${EXPLORED_AREAS.join(', ')}` })
      .option('cases', { type: 'number', describe: 'Stop each area after this many generated cases, whatever time is left: an exploration that a seed repeats case for case' })
      .option('replay', { type: 'string', describe: 'Run the shrunk case of a replay file (<out>/explore/<check>.replay.json of an earlier exploration) again and judge it' })
      .option('out', { alias: 'o', type: 'string', default: 'ptas-explore', describe: 'Directory for index.html, results.json, junit.xml and the replay files' })
      .option('fault', { type: 'string', array: true, describe: 'Inject a fault into the embedded reference (see `ptas reference --list-faults`)' })
      .option('variant', { type: 'string', array: true, coerce: names, describe: 'Run the embedded reference with legitimate variants (see `ptas reference --list-variants`)' })
      .option('condition', { type: 'string', array: true, coerce: names, describe: 'Run the embedded reference under real-world conditions (see `ptas reference --list-conditions`)' })
      .check((argv) => {
        if (argv.cases !== undefined && (!Number.isInteger(argv.cases) || argv.cases < 1)) throw new Error('--cases: a whole number of cases, 1 or more');
        if (argv.seed !== undefined && !Number.isInteger(argv.seed)) throw new Error('--seed: a whole number, as an earlier exploration printed it');
        if (argv.replay && (argv.area || argv.seed !== undefined || argv.cases !== undefined)) throw new Error('--replay runs the case its file holds: leave out --area, --seed and --cases');
        return true;
      })
      .example('$0 explore', 'Explore the bundled reference for 60 s')
      .example('$0 explore --base-url https://sandbox.example.com -c profile.json --budget 5m', 'Explore an implementation for five minutes')
      .example('$0 explore --fault wda-owner-name-not-stored --area crypto-transfers', 'See exploration find a fault of the reference and shrink the case that shows it')
      .example('$0 explore --replay ptas-explore/explore/explore.crypto-transfers.echoes-request.replay.json', 'Run a finding\'s shrunk case again')
      .epilog(
        [
          "What it judges: each generated case against what the spec's rules allow for it. A contradiction of the spec's words, of a standard it names or of the profile's declaration is a FAIL on that sentence (a SHOULD's, a WARN), as in `ptas run`; where they are silent — a body field left out, a boundary value taken or refused, a listed 500 that stored nothing — the case is recorded, never judged.",
          'A case that contradicts a rule is shrunk to the smallest case that still does, then run twice more: it is a finding only when both runs contradict the rule again. Its replay file is written to <out>/explore/.',
          'Each rule is a check, explore.<area>.<rule>: FAIL or WARN with the shrunk case as evidence, PASS with how many cases exercised it, SKIP when no case reached it. Reports, bundles, waivers, `ptas rejudge` and `ptas verify` take them like any check; a certification does not require them.',
          '',
          'Exit codes: as `ptas run`: 0 nothing contradicted, 1 a rule contradicted, 2 usage or config error, 3 target unreachable, 4 internal error, 5 incomplete, 130 interrupted.',
        ].join('\n'),
      ) as unknown as Argv<ExploreArgs>,
  handler: async (args) => {
    try {
      const [{ ptasRun }, { terminalSummary }, { readReplayFile }, { chosenAreas }] = await Promise.all([
        import('../app/run/run.ts'),
        import('../reports/terminal.ts'),
        import('../explore/replay.ts'),
        import('../explore/stage.ts'),
      ]);
      // What the command was told to explore is checked before the target is started.
      chosenAreas(args.area);
      const replay = args.replay ? readReplayFile(args.replay) : undefined;
      const profile = profileFrom(args);
      const signal = stopOnInterrupt();
      const outcome = await ptasRun({
        profile,
        outDir: args.out,
        faults: args.fault,
        variants: args.variant,
        conditions: args.condition,
        conformance: false,
        load: false,
        explore: { budgetMs: args.budget, seed: args.seed, areas: args.area, maxCases: args.cases, replay },
        signal,
      });
      process.stdout.write(terminalSummary(outcome.results, outcome.report));
      process.stdout.write(bundleLine(outcome.bundle.manifest, outcome.bundle.manifestPath));
      process.exitCode = outcome.exitCode;
    } catch (error) {
      fail(error);
    }
  },
};
