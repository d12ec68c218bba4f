// `ptas rejudge BUNDLE|results.json... [--out DIR] [--json]`: stored runs
// judged again offline by the installed suite (app/rejudge/rejudge.ts), and
// what that changes, check by check.
import type { Argv, CommandModule } from 'yargs';
import { EXIT } from '../src/exit-codes.ts';
import type { RunVerdict } from '../src/results/model.ts';
import { fail } from './connection.ts';

interface RejudgeArgs {
  paths: string[];
  out?: string;
  json?: boolean;
  signKey?: string;
}

/** The verdict that decides the exit code of several runs: the one ptas run would end worst with. */
const GRAVITY: RunVerdict[] = ['CONFORMANT', 'CONFORMANT WITH WAIVERS', 'INCOMPLETE', 'NOT CONFORMANT'];

export const rejudgeCommand: CommandModule<object, RejudgeArgs> = {
  command: 'rejudge <paths..>',
  describe: 'Judge stored runs again with this suite, offline, from what their checks recorded: which verdicts this version changes, and whether each run would still certify',
  builder: (y: Argv) =>
    y
      .positional('paths', { type: 'string', array: true, demandOption: true, describe: 'Bundles (the --out directory of ptas run or ptas merge) or results.json files' })
      .option('out', { alias: 'o', type: 'string', describe: 'Write each run judged again here: a new report, and for a bundle a new bundle naming the one it came from (one folder per run when several are given)' })
      .option('json', { type: 'boolean', describe: 'Print JSON (every run: its verdicts before and after, every changed check with both bases, the checks not judged again)' })
      .option('sign-key', { type: 'string', describe: 'Ed25519 private key (PEM file or env:NAME) that signs each new bundle (the old signature never carries over)' })
      .example('$0 rejudge nightly/ ', 'What this version of the suite says of last night\'s run')
      .example('$0 rejudge runs/*/ --json > flips.json', 'Every stored run a lab keeps, before upgrading')
      .example('$0 rejudge bundle --out bundle-v2 --sign-key key.pem', 'A new bundle judged by this version, naming the one it came from')
      .epilog(
        `Nothing is sent to the implementation: each check's verdict is judged again from its record in results.json (its claims, each naming the sentence it rests on by reference), with this suite's catalogue — its severities, requirements and sentences — and rules; the cross-cutting checks over the same recorded exchanges; waivers as of when the run judged them. The same suite version gives the same verdicts. A check recorded by a suite older than records, or merged from several attempts, keeps its verdict and is listed as not judged again; a check this suite no longer has is left out; one it has that the run did not run shows as new (run it live).\n\n` +
          `Exit codes: as ptas run for the verdict judged again (0 conformant, 1 not conformant, 5 incomplete, 6 conformant with waivers; with several runs the worst), ${EXIT.USAGE} a path that is no results file or a bundle changed after its run.`,
      ) as unknown as Argv<RejudgeArgs>,
  handler: async (args) => {
    try {
      // Loaded here, not at the top: every other command starts without them.
      const [{ listAllChecks }, { rejudgeStored }, { rejudgedJson, rejudgedText }, { exitCodeFor }, { loadSigningKey }] = await Promise.all([
        import('../app/run/list.ts'),
        import('../app/rejudge/rejudge.ts'),
        import('../reports/rejudged.ts'),
        import('../src/results/verdict.ts'),
        import('../src/certify/signing.ts'),
      ]);
      await listAllChecks();
      const runs = await rejudgeStored({ paths: args.paths, outDir: args.out, signingKey: args.signKey ? loadSigningKey(args.signKey) : undefined });
      const accounts = runs.map((run) => ({ ...run, suiteVersion: run.results.run.suiteVersion }));
      if (args.json) process.stdout.write(JSON.stringify({ runs: accounts.map(rejudgedJson) }, null, 2) + '\n');
      else for (const account of accounts) process.stdout.write(rejudgedText(account));
      const worst = runs.map((r) => r.results.verdict).sort((a, b) => GRAVITY.indexOf(b) - GRAVITY.indexOf(a))[0]!;
      process.exitCode = exitCodeFor(worst, false);
    } catch (error) {
      fail(error);
    }
  },
};
