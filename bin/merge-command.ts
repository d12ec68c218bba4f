// `ptas merge DIR... --out DIR`: the bundles of a sharded run (ptas run
// --shard i/n), or a whole run and its re-runs (ptas run --rerun-of), re-runs
// included as attempts, made into one bundle (app/merge/merge.ts; the re-run
// policy: src/results/attempts.ts).
import type { Argv, CommandModule } from 'yargs';
import { EXIT } from '../src/exit-codes.ts';
import { fail } from './connection.ts';
import { bundleLine } from './bundle-args.ts';

interface MergeArgs {
  dirs: string[];
  out: string;
  pubkey?: string;
  signKey?: string;
}

export const mergeCommand: CommandModule<object, MergeArgs> = {
  command: 'merge <dirs..>',
  describe: 'Merge the bundles of a sharded run (ptas run --shard i/n), or a run and its re-runs (ptas run --rerun-of), into one bundle, refusing a missing, duplicate or inconsistent part',
  builder: (y: Argv) =>
    y
      .positional('dirs', { type: 'string', array: true, demandOption: true, describe: 'The --out directory of every part (and of every re-run of a part)' })
      .option('out', { alias: 'o', type: 'string', demandOption: true, describe: 'Directory for the merged bundle (a new one)' })
      .option('pubkey', { type: 'string', describe: 'Ed25519 public key (PEM file or env:NAME) every part must be signed with' })
      .option('sign-key', { type: 'string', describe: 'Ed25519 private key (PEM file or env:NAME) that signs the merged manifest' })
      .example('$0 run --shard 1/2 --out part1   # on one machine', '')
      .example('$0 run --shard 2/2 --out part2   # on another', '')
      .example('$0 merge part1 part2 --out bundle --sign-key key.pem', 'One bundle, as if the run had run at once; ptas verify checks it as any other')
      .example('$0 merge part1 part2 part2-rerun --out bundle', 'Part 2 ran twice: its checks record both attempts (a fail-then-pass is FLAKY)')
      .example('$0 merge night night-again --out bundle', 'A run and its re-run of what failed or did not run (ptas run --rerun-of night --out night-again)')
      .epilog(
        `The load stage runs in part 1 only. Cross-cutting checks are computed again over every part's exchanges. A check found in two different parts refuses the merge.\n\n` +
          `Re-runs: give every run of a part (e.g. part2 and part2-rerun); each is an attempt, ordered by when it started. A run without --shard is the one part of a run of one part, and its re-run of some checks (ptas run --rerun-of) an attempt of it: a check the re-run did not run keeps its one attempt. The same run given twice (the same manifest.json: the same directory or a copy) is refused as a duplicate. Each check of that part records every attempt and gets one verdict: ERROR and SKIP attempts are set aside when another attempt gave a verdict (an infrastructure retry that recovered); a FAIL followed by a PASS, WARN or REVIEW is FLAKY — for certification a fail-then-pass is not a pass, and FLAKY makes the run NOT CONFORMANT as FAIL does, keeping the failing attempt's evidence; a FAIL never becomes anything but FAIL or FLAKY; otherwise the verdict of the last attempt that gave one. A part's interruption and problems outside any check are its latest run's; its load figures the latest run's that ran the load stage.\n\n` +
          `Exit codes: as ptas run for the merged verdict (0 conformant, 1 not conformant, 5 incomplete), ${EXIT.USAGE} refused (the first problem is named).`,
      ) as unknown as Argv<MergeArgs>,
  handler: async (args) => {
    try {
      // Loaded here, not at the top: every other command starts without them.
      const [{ loadPublicKey, loadSigningKey }, { exitCodeFor }, { mergeShards }, { terminalSummary }] = await Promise.all([
        import('../src/certify/signing.ts'),
        import('../src/results/verdict.ts'),
        import('../app/merge/merge.ts'),
        import('../reports/terminal.ts'),
      ]);
      const merged = mergeShards({
        dirs: args.dirs,
        outDir: args.out,
        publicKey: args.pubkey ? loadPublicKey(args.pubkey) : undefined,
        signingKey: args.signKey ? loadSigningKey(args.signKey) : undefined,
      });
      process.stdout.write(`ptas merge: ${args.dirs.length} bundles merged\n`);
      process.stdout.write(terminalSummary(merged.results, merged.report));
      process.stdout.write(bundleLine(merged.bundle.manifest, merged.bundle.manifestPath));
      process.exitCode = exitCodeFor(merged.results.verdict, false);
    } catch (error) {
      fail(error);
    }
  },
};
