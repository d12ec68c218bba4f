// The ptas command line. Thin: it parses and validates arguments, then calls
// into app/. Exit codes: 0 conformant, 1 not conformant, 2 usage or config
// error, 3 target unreachable, 4 internal error, 5 incomplete, 6 conformant
// with waivers, 130 interrupted (src/exit-codes.ts).
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { ENVIRONMENT_VARIABLES } from '../src/config/load.ts';
import { EXIT } from '../src/exit-codes.ts';
import { ConfigError } from '../src/config/errors.ts';
import { DEFAULT_CHECK_TIMEOUT_MS } from '../runner/settings.ts';
import { connectionOptions, fail, profileFrom } from './connection.ts';
import { runReferenceCommand, referenceOptionsBuilder, type ReferenceArgs } from './reference-command.ts';
import { loadCommand } from './load-command.ts';
import { initCommand } from './init-command.ts';
import { doctorCommand } from './doctor-command.ts';
import { reportCommand, reporterOption } from './report-command.ts';
import { verifyCommand } from './verify-command.ts';
import { mergeCommand } from './merge-command.ts';
import { rejudgeCommand } from './rejudge-command.ts';
import { serveCommand } from './serve-command.ts';
import { exploreCommand, exploreRunOption } from './explore-command.ts';
import { stopOnInterrupt } from './interrupt.ts';
import { bundleLine, nonceArgument, shardArgument } from './bundle-args.ts';

// `ptas list | head` closes our stdout early: that is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

/** `--variant a,b --variant c` → [a, b, c]. */
function splitNames(values: string[] | undefined): string[] | undefined {
  return values?.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
}

const ENV_HELP = ENVIRONMENT_VARIABLES.map((v) => `  ${v.name.padEnd(20)} ${v.what}`).join('\n');

await yargs(hideBin(process.argv))
  .scriptName('ptas')
  .usage('$0 <command> [options]\n\nConformance and load tests for implementations of the Partner Trading and Account Service API.')
  .command(
    'run',
    'Run the conformance checks (and load probes) against a target and write the report',
    (y) =>
      connectionOptions(y)
        .option('out', { alias: 'o', type: 'string', default: 'ptas-report', describe: 'Directory for index.html, results.json and junit.xml' })
        .option('fault', { type: 'string', array: true, describe: 'Inject a fault into the embedded reference (repeatable; see `ptas reference --list-faults`)' })
        .option('variant', {
          type: 'string',
          array: true,
          coerce: splitNames,
          describe: 'Run the embedded reference with legitimate variants: behaviours the spec allows that it does not show by default (NAME[,NAME]; see `ptas reference --list-variants`)',
        })
        .option('condition', {
          type: 'string',
          array: true,
          coerce: splitNames,
          describe: 'Run the embedded reference under real-world conditions: latency, closed connections, a proxy, transient 503/429, slow webhooks, long processing … (NAME[,NAME]; see `ptas reference --list-conditions`)',
        })
        .option('grep', { type: 'string', describe: 'Run only checks whose title or tags match, e.g. @TOKEN-REFRESH-SINGLE-USE or @area:auth' })
        .option('workers', { type: 'number', describe: 'Parallel check workers (default: twice the CPU count, 4 to 8, as checks mostly wait, but no more than one per 12 checks the run has, as each costs about 1.7 CPU-s to start; one per webhook user, up to 16, when the profile declares webhook waits of 2 s or more)' })
        .option('check-timeout-ms', { type: 'number', describe: `Time limit for one check in ms (default ${DEFAULT_CHECK_TIMEOUT_MS}), to which each check adds the waits the profile declares for it (a poll deadline, a validity, a webhook window)` })
        .option('load', { type: 'boolean', default: true, describe: 'Run the load stage (429 and 413 probes); --no-load skips it' })
        .option('explore', exploreRunOption)
        .option('sign-key', { type: 'string', describe: 'Ed25519 private key (PEM file, or env:NAME holding the PEM) that signs manifest.json (manifest.json.sig); without it the manifest says "unsigned"' })
        .option('reporter', reporterOption)
        .option('waivers', { type: 'string', describe: 'Waiver file (schemas/waivers.schema.json): known failures, each with a reason, owner, tracking link and expiry date, shown as WAIVED; with no other failure the run is CONFORMANT WITH WAIVERS (exit 6)' })
        .option('strict-waivers', { type: 'boolean', default: false, describe: 'Make the run INCOMPLETE (exit 5) when a waiver is stale (its checks no longer fail as it says) or unmatched (it selects no check of the run)' })
        .option('shard', { type: 'string', coerce: shardArgument, describe: 'Run part INDEX of TOTAL of the checks (e.g. 1/2), for one machine each; the load stage runs in part 1; join the parts with `ptas merge`' })
        .option('nonce', { type: 'string', coerce: nonceArgument, describe: 'A value the certifier issued for this run: sent as the ptas-nonce header on every request and bound into manifest.json' })
        .option('rerun-of', {
          type: 'string',
          describe: 'Run again only the checks of the run in DIR (its --out) that FAILed, ERRORed, SKIPped or did not run, with its nonce (and the load stage when it asks for it); join the two with `ptas merge DIR OUT --out MERGED`',
        })
        .check((argv) => {
          if (argv.strictWaivers && !argv.waivers) throw new ConfigError('--strict-waivers needs --waivers FILE: the waivers it holds to account');
          if (argv.rerunOf && (argv.grep || argv.shard)) throw new ConfigError('--rerun-of chooses the checks itself: leave out --grep and --shard');
          return true;
        })
        .example('$0 run', 'Test the bundled reference implementation (starts and stops it)')
        .example('$0 run --base-url https://sandbox.example.com -c profile.json', 'Test an implementation described by a profile')
        .example('$0 run --fault refresh-token-reusable', 'See a check fail against a deliberately broken reference')
        .example('$0 run --variant duplicate-address-refused,accept-replay-idempotent', 'See the checks hold on a reference that reads the spec\'s gaps differently')
        .example('$0 run --condition latency,transient-503', 'See the verdict hold on a reference that answers late and sometimes 503')
        .example('$0 run --grep @area:auth', 'Run only the auth checks')
        .example('$0 run --waivers waivers.json --strict-waivers', 'Accept known failures that have an owner and an expiry date; fail when a waiver is out of date')
        .example('$0 run --out bundle --reporter github', 'In GitHub Actions: annotations and a job summary')
        .example('$0 run --sign-key key.pem --nonce N --out bundle', 'A signed certification bundle bound to the certifier\'s nonce (check it with `ptas verify bundle --pubkey key.pub --nonce N`)')
        .example('$0 run --rerun-of bundle --out again && $0 merge bundle again --out merged', 'Run again what failed or did not run, and join it to the run as a second attempt (a fail-then-pass is FLAKY)')
        .epilog(`Environment variables:\n${ENV_HELP}\n\nExit codes: 0 conformant, 1 not conformant, 2 usage or config error, 3 target unreachable, 4 internal error, 5 incomplete (no contradiction found, but some checks could not run, or --strict-waivers found a stale or unmatched waiver), 6 conformant with waivers (nothing failed except what unexpired waivers accept), 130 interrupted. A waiver file or signing key ptas cannot use is a usage error (2), found before the run.`),
    async (args) => {
      try {
        const profile = profileFrom(args);
        // Each command loads what it runs when it runs: `ptas verify` or `--help` never loads the checks.
        const [{ ptasRun }, { terminalSummary }, { emitGithubReport }] = await Promise.all([import('../app/run/run.ts'), import('../reports/terminal.ts'), import('../reports/github.ts')]);
        // First Ctrl-C: stop and write a partial report marked INCOMPLETE. Second: leave at once.
        const signal = stopOnInterrupt();
        const rerun = args.rerunOf ? await (await import('../app/run/rerun.ts')).planRerun(args.rerunOf, args.nonce) : undefined;
        if (rerun && !rerun.checkIds.length && !(rerun.load && args.load)) {
          process.stdout.write(`ptas: nothing to re-run: every check of ${args.rerunOf} has a verdict that observed the implementation (PASS, WARN or REVIEW)\n`);
          return;
        }
        const outcome = await ptasRun({
          profile,
          outDir: args.out,
          faults: args.fault,
          variants: args.variant,
          conditions: args.condition,
          grep: rerun ? rerun.grep : args.grep,
          ...(rerun && !rerun.checkIds.length ? { conformance: false } : {}),
          workers: args.workers,
          checkTimeoutMs: args.checkTimeoutMs,
          load: args.load && (rerun?.load ?? true),
          signal,
          signKey: args.signKey,
          nonce: rerun ? rerun.nonce : args.nonce,
          shard: args.shard,
          waivers: args.waivers,
          strictWaivers: args.strictWaivers,
          ...(args.explore ? { explore: { budgetMs: args.explore } } : {}),
        });
        process.stdout.write(terminalSummary(outcome.results, outcome.report));
        process.stdout.write(bundleLine(outcome.bundle.manifest, outcome.bundle.manifestPath));
        if (rerun) process.stdout.write(`  a re-run of ${rerun.checkIds.length} check(s)${rerun.load && args.load ? ' and the load stage' : ''}: join it to the run with ptas merge ${args.rerunOf} ${args.out} --out MERGED\n`);
        if (args.reporter === 'github') await emitGithubReport(outcome.results, { stdout: process.stdout, summaryFile: process.env.GITHUB_STEP_SUMMARY || undefined });
        process.exitCode = outcome.exitCode;
      } catch (error) {
        fail(error);
      }
    },
  )
  .command(
    'reference',
    'Start the bundled reference implementation (a sandbox, and the target of the self-test)',
    (y) => referenceOptionsBuilder(y),
    async (args) => {
      try {
        await runReferenceCommand(args as unknown as ReferenceArgs);
      } catch (error) {
        fail(error);
      }
    },
  )
  .command(
    'list',
    'List every check with its requirement ids and severity',
    (y) => y.option('json', { type: 'boolean', describe: 'Print JSON instead of a table' }),
    async (args) => {
      try {
        const { listAllChecks } = await import('../app/run/list.ts');
        const checks = await listAllChecks();
        if (args.json) {
          process.stdout.write(JSON.stringify(checks, null, 2) + '\n');
          return;
        }
        const width = Math.max(...checks.map((c) => c.id.length));
        for (const c of checks) process.stdout.write(`${c.id.padEnd(width)}  ${c.severity.padEnd(6)}  ${c.requirements.join(', ')}\n`);
        process.stdout.write(`${checks.length} checks\n`);
      } catch (error) {
        fail(error);
      }
    },
  )
  .command(initCommand)
  .command(exploreCommand)
  .command(loadCommand)
  .command(doctorCommand)
  .command(reportCommand)
  .command(verifyCommand)
  .command(mergeCommand)
  .command(rejudgeCommand)
  .command(serveCommand)
  .demandCommand(1, 'Name a command: init, run, explore, reference, list, load, report, doctor, verify, merge, rejudge or serve (see --help).')
  .strict()
  .recommendCommands()
  .wrap(Math.min(110, process.stdout.columns || 110))
  .fail((message, error, y) => {
    // yargs wraps what an argument's coerce function throws in a YError: that is a usage error like any other.
    if (error && error.name !== 'YError') fail(error);
    process.stderr.write(`${y.help()}\n\nptas: ${message ?? error?.message}\n`);
    process.exit(EXIT.USAGE);
  })
  .help()
  .parseAsync();
