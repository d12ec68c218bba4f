// `ptas report`: two modes.
//   ptas report RESULTS [--baseline PREV] [--fail-on-regression] [--reporter github]
//     re-renders index.html, results.json and junit.xml from saved results,
//     optionally compared with a baseline run (nightly CI), and with
//     --reporter github prints GitHub Actions annotations and appends a job
//     summary (reports/github.ts).
//   ptas report --history DIR_OR_RESULTS... --out DIR
//     writes history.html, the trend page over nights (reports/history.ts),
//     and names the unstable checks on the terminal.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import { ConfigError } from '../src/config/errors.ts';
import { EXIT } from '../src/exit-codes.ts';
import { readResultsFile, resolveResultsPath, ResultsFileError } from '../reports/read-results.ts';

/** `--reporter`, shared by `ptas run` and `ptas report` so both say the same. */
export const reporterOption = {
  choices: ['terminal', 'github'] as const,
  default: 'terminal' as const,
  describe:
    'terminal: the summary on stdout. github: also GitHub Actions annotations (one ::error per FAIL naming its requirement and clause, ' +
    '::error for ERROR, ::warning for WARN) and a Markdown job summary appended to the file $GITHUB_STEP_SUMMARY names',
};

interface ReportArgs {
  results?: string;
  history?: string[];
  out?: string;
  baseline?: string;
  failOnRegression: boolean;
  reporter: 'terminal' | 'github';
}

/** One mode or the other, never both or neither; what only one mode reads is refused in the other. */
function checkMode(args: ReportArgs): true {
  const history = args.history !== undefined;
  if (!history && !args.results) throw new ConfigError('name a saved run (ptas report RESULTS) or the nights of a history (ptas report --history DIR_OR_RESULTS... --out DIR)');
  if (history && args.results) throw new ConfigError(`give a saved run (${args.results}) or --history, not both: a history takes every night after --history`);
  if (!history) return true;
  if (!args.history!.length) throw new ConfigError('--history needs at least one night: results.json files, report folders, or a folder with one folder per night');
  if (!args.out) throw new ConfigError('--history needs --out DIR, the folder history.html is written to');
  const oneRunOnly = [args.baseline && '--baseline', args.failOnRegression && '--fail-on-regression', args.reporter !== 'terminal' && `--reporter ${args.reporter}`].filter(Boolean);
  if (oneRunOnly.length) throw new ConfigError(`${oneRunOnly.join(', ')} applies to one saved run, not to --history (the trend page marks each night's regressions itself)`);
  return true;
}

// The report's renderers are loaded when a report is written: every other command starts without them.
async function reportOneRun(args: ReportArgs): Promise<void> {
  const [{ compareWithBaseline }, { emitGithubReport }, { terminalSummary }, { writeReport }] = await Promise.all([
    import('../reports/baseline.ts'),
    import('../reports/github.ts'),
    import('../reports/terminal.ts'),
    import('../reports/write.ts'),
  ]);
  const results = readResultsFile(args.results!);
  const previous = args.baseline ? readResultsFile(args.baseline) : undefined;
  const diff = previous ? compareWithBaseline(previous, results) : undefined;
  const outDir = path.resolve(args.out ?? path.dirname(resolveResultsPath(args.results!)));
  const report = writeReport(results, outDir, { diff });
  process.stdout.write(terminalSummary(results, report, diff));
  if (args.reporter === 'github') await emitGithubReport(results, { stdout: process.stdout, summaryFile: process.env.GITHUB_STEP_SUMMARY || undefined, diff });
  // 1, as for a failing run: CI treats both the same way.
  if (args.failOnRegression && diff && diff.regressions > 0) process.exitCode = EXIT.NOT_CONFORMANT;
}

async function reportHistory(args: ReportArgs): Promise<void> {
  const [{ buildHistory }, { readHistory }, { renderHistoryHtml }] = await Promise.all([import('../reports/history.ts'), import('../reports/history-read.ts'), import('../reports/html/history.ts')]);
  const history = buildHistory(readHistory(args.history!));
  const outDir = path.resolve(args.out!);
  mkdirSync(outDir, { recursive: true });
  const page = path.join(outDir, 'history.html');
  writeFileSync(page, renderHistoryHtml(history));
  const first = history.nights[0]!;
  const last = history.nights[history.nights.length - 1]!;
  // Each unstable check on a line of its own: the nightly log says whose it is without opening the page.
  const unstable = history.unstable.map(({ id, target, observations: { earlier, later }, attributed }) =>
    `  unstable ${id}${history.manyTargets ? ` on ${target}` : ''}: ${earlier.verdict} (${earlier.startedAt}), then ${later.verdict} (${later.startedAt}); ${attributed}\n`,
  );
  process.stdout.write(
    `\nhistory of ${history.nights.length} night${history.nights.length === 1 ? '' : 's'}, ${first.startedAt} to ${last.startedAt}: latest ${last.verdict}, ` +
      `${last.regressions} regression${last.regressions === 1 ? '' : 's'} since the night before, ${unstable.length} unstable check${unstable.length === 1 ? '' : 's'}\n` +
      `${unstable.join('')}  page: ${page}\n`,
  );
}

export const reportCommand: CommandModule<object, ReportArgs> = {
  command: 'report [results]',
  describe: 'Re-render the report from a saved results.json (optionally compared with a baseline run), or draw the trend page over nights (--history)',
  builder: (y: Argv) =>
    y
      .positional('results', { type: 'string', describe: 'results.json of a run (or the report directory holding it); not with --history' })
      .option('out', { alias: 'o', type: 'string', describe: 'Directory for index.html, results.json and junit.xml (default: the directory of RESULTS); with --history, for history.html' })
      .option('baseline', { type: 'string', describe: 'results.json of a previous run: show newly failing and newly passing checks and changed load figures' })
      .option('fail-on-regression', { type: 'boolean', default: false, describe: 'Exit 1 when a check FAILs or ERRORs that did not in the baseline' })
      .option('reporter', reporterOption)
      .option('history', {
        type: 'string',
        array: true,
        describe: 'Draw history.html over nights instead: results.json files, report folders, or a folder holding one folder per night (ordered by each run\'s start)',
      })
      .check((args) => checkMode(args as unknown as ReportArgs))
      .example('$0 report ptas-report/results.json --out /tmp/report', 'Re-render a saved run')
      .example('$0 report tonight/results.json --baseline last-night/results.json --fail-on-regression', 'Nightly CI: exit 1 on regressions')
      .example('$0 report tonight/results.json --baseline last-night/results.json --reporter github', 'In GitHub Actions: annotations and a job summary')
      .example('$0 report --history nights/ --out history/', 'The trend page over every nights/<night>/results.json')
      .epilog('Exit codes: 0 written (and no regression when --fail-on-regression), 1 regressions, 2 usage error or a missing or invalid results file.') as unknown as Argv<ReportArgs>,
  handler: async (args) => {
    try {
      if (args.history !== undefined) await reportHistory(args);
      else await reportOneRun(args);
    } catch (error) {
      if (!(error instanceof ResultsFileError)) throw error;
      process.stderr.write(`ptas report: ${error.message}\n`);
      process.exitCode = EXIT.USAGE;
    }
  },
};
