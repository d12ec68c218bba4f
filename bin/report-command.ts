// `ptas report RESULTS.json`: re-renders index.html, results.json and
// junit.xml from saved results, optionally compared with a baseline run
// (nightly CI: `--baseline last-night/results.json --fail-on-regression`).
import path from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import { EXIT } from '../src/exit-codes.ts';
import { compareWithBaseline } from '../reports/baseline.ts';
import { readResultsFile, resolveResultsPath, ResultsFileError } from '../reports/read-results.ts';
import { terminalSummary } from '../reports/terminal.ts';
import { writeReport } from '../reports/write.ts';

interface ReportArgs {
  results: string;
  out?: string;
  baseline?: string;
  failOnRegression: boolean;
}

export const reportCommand: CommandModule<object, ReportArgs> = {
  command: 'report <results>',
  describe: 'Re-render the report from a saved results.json, optionally compared with a baseline run',
  builder: (y: Argv) =>
    y
      .positional('results', { type: 'string', demandOption: true, describe: 'results.json of a run (or the report directory holding it)' })
      .option('out', { alias: 'o', type: 'string', describe: 'Directory for index.html, results.json and junit.xml (default: the directory of RESULTS)' })
      .option('baseline', { type: 'string', describe: 'results.json of a previous run: show newly failing and newly passing checks and changed load figures' })
      .option('fail-on-regression', { type: 'boolean', default: false, describe: 'Exit 1 when a check FAILs or ERRORs that did not in the baseline' })
      .example('$0 report ptas-report/results.json --out /tmp/report', 'Re-render a saved run')
      .example('$0 report tonight/results.json --baseline last-night/results.json --fail-on-regression', 'Nightly CI: exit 1 on regressions')
      .epilog('Exit codes: 0 written (and no regression when --fail-on-regression), 1 regressions, 2 missing or invalid results file.') as unknown as Argv<ReportArgs>,
  handler: (args) => {
    try {
      const results = readResultsFile(args.results);
      const previous = args.baseline ? readResultsFile(args.baseline) : undefined;
      const diff = previous ? compareWithBaseline(previous, results) : undefined;
      const outDir = path.resolve(args.out ?? path.dirname(resolveResultsPath(args.results)));
      const report = writeReport(results, outDir, { diff });
      process.stdout.write(terminalSummary(results, report, diff));
      // 1, as for a failing run: CI treats both the same way.
      if (args.failOnRegression && diff && diff.regressions > 0) process.exitCode = EXIT.NOT_CONFORMANT;
    } catch (error) {
      if (!(error instanceof ResultsFileError)) throw error;
      process.stderr.write(`ptas report: ${error.message}\n`);
      process.exitCode = EXIT.USAGE;
    }
  },
};
