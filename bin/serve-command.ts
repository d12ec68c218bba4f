// `ptas serve`: the certification lab as a server (app/serve/): a store of
// implementations, runs and their bundles under --data, a run queue, the API
// for CI and the console. `ptas serve token create|revoke|list` manages the
// API's tokens in the same store, also while a server runs.
import os from 'node:os';
import path from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import { ConfigError } from '../src/config/errors.ts';
import { EXIT } from '../src/exit-codes.ts';
import { DEFAULT_HOST, DEFAULT_MAX_QUEUED_RUNS, DEFAULT_MAX_QUEUED_RUNS_PER_TOKEN, DEFAULT_PORT } from '../app/serve/defaults.ts';
import type { TokenStore } from '../app/serve/tokens.ts';
import type { AuditLog } from '../app/serve/audit.ts';
import { fail } from './connection.ts';
import { ROLES, type Role } from '../app/serve/roles.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

const DEFAULT_DATA = './ptas-data';

interface ServeArgs {
  port: number;
  host: string;
  data: string;
  tlsCert?: string;
  tlsKey?: string;
  maxConcurrentRuns: number;
  secretEnv?: string[];
  allowTarget?: string[];
  profileFiles?: string;
  maxQueuedRuns: number;
  maxQueuedRunsPerToken: number;
}

interface TokenArgs {
  action: 'create' | 'revoke' | 'list';
  name?: string;
  role: Role;
  expiresInDays?: number;
  data: string;
}


// The server's modules are loaded by the handler that needs them: every other command starts without them.
async function tokenStores(data: string): Promise<{ tokens: TokenStore; audit: AuditLog }> {
  const [{ StoreLayout }, { TokenStore }, { AuditLog }] = await Promise.all([import('../app/serve/store/layout.ts'), import('../app/serve/tokens.ts'), import('../app/serve/audit.ts')]);
  const layout = new StoreLayout(data);
  layout.ensure();
  return { tokens: new TokenStore(layout.tokensFile), audit: new AuditLog(layout.auditFile) };
}

/** Who acts when the store is changed on this machine: the account that ran the command. */
const localActor = () => `${os.userInfo().username}@${os.hostname()} (ptas serve token)`;

const tokenCommand: CommandModule<object, TokenArgs> = {
  command: 'token <action>',
  describe: "Manage the API's bearer tokens: create (shown once, stored hashed), revoke, list",
  builder: (y: Argv) =>
    y
      .positional('action', { choices: ['create', 'revoke', 'list'] as const, demandOption: true, describe: 'create, revoke or list' })
      .option('name', { type: 'string', describe: 'The token\'s name (create, revoke), e.g. ci-nightly' })
      .option('role', {
        choices: ROLES,
        default: 'admin' as Role,
        describe: 'What the token may do (create): viewer reads; certifier also starts and cancels runs, Checks profiles and shares reports; admin also edits implementations and reads the audit log',
      })
      .option('expires-in-days', { type: 'number', describe: 'The token stops working this many days after it is made (create); without it, when revoked' })
      .option('data', { type: 'string', default: DEFAULT_DATA, describe: 'The store directory of the server' })
      .check((argv) => {
        if (argv.action !== 'list' && !argv.name) throw new ConfigError(`ptas serve token ${argv.action} needs --name NAME`);
        const days = argv.expiresInDays as number | undefined;
        if (days !== undefined && !(Number.isFinite(days) && days > 0)) throw new ConfigError(`--expires-in-days takes a positive number of days; got ${days}`);
        return true;
      })
      .example('$0 serve token create --name ci-nightly --role certifier --expires-in-days 90', 'A token for a CI job that runs and shares, for 90 days (printed once: put it in the job\'s secrets)')
      .example('$0 serve token create --name auditor --role viewer', 'A token that can read runs and reports, nothing more')
      .example('$0 serve token revoke --name ci-nightly', 'It stops working at once, also on a running server') as unknown as Argv<TokenArgs>,
  handler: async (args) => {
    try {
      const { tokens, audit } = await tokenStores(args.data);
      if (args.action === 'create') {
        const token = tokens.create(args.name!, { role: args.role, ...(args.expiresInDays !== undefined ? { expiresInMs: args.expiresInDays * DAY_MS } : {}) });
        const made = tokens.list().findLast((t) => t.name === args.name)!;
        audit.record({ actor: localActor(), via: 'cli', action: 'token create', target: { token: args.name!, role: made.role, ...(made.expiresAt ? { expiresAt: made.expiresAt } : {}) } });
        const until = made.expiresAt ? `, valid until ${made.expiresAt}` : '';
        process.stderr.write(`ptas serve: token ${args.name} (${made.role}${until}) created; it is shown this once (the store keeps only its SHA-256):\n`);
        process.stdout.write(`${token}\n`);
      } else if (args.action === 'revoke') {
        if (!tokens.revoke(args.name!)) throw new ConfigError(`no live token named ${args.name} in ${path.resolve(args.data)} (ptas serve token list shows them)`);
        audit.record({ actor: localActor(), via: 'cli', action: 'token revoke', target: { token: args.name! } });
        process.stdout.write(`ptas serve: token ${args.name} revoked\n`);
      } else {
        const list = tokens.list();
        if (!list.length) process.stdout.write('no tokens (the first start of ptas serve makes one)\n');
        for (const t of list) {
          const state = t.revokedAt ? `  revoked ${t.revokedAt}` : t.expiresAt ? `  ${tokens.isLiveInfo(t) ? 'expires' : 'expired'} ${t.expiresAt}` : '';
          process.stdout.write(`${t.name.padEnd(24)} ${t.role.padEnd(9)} created ${t.createdAt}${state}\n`);
        }
      }
    } catch (error) {
      fail(error);
    }
  },
};

export const serveCommand: CommandModule<object, ServeArgs> = {
  command: 'serve',
  describe: 'Serve the certification lab: implementations, a run queue, bundles, share links, the API for CI and the console',
  builder: (y: Argv) =>
    y
      .command(tokenCommand as unknown as CommandModule)
      .option('port', { type: 'number', default: DEFAULT_PORT, describe: 'Port to listen on (0: any free port; the address is printed)' })
      .option('host', { type: 'string', default: DEFAULT_HOST, describe: 'Address to listen on; another than loopback needs --tls-cert and --tls-key' })
      .option('data', { type: 'string', default: DEFAULT_DATA, describe: 'The store: implementations, runs and their bundles, tokens (hashed), share links' })
      .option('tls-cert', { type: 'string', describe: 'PEM certificate: serve HTTPS (with --tls-key)' })
      .option('tls-key', { type: 'string', describe: 'PEM private key of --tls-cert' })
      .option('max-concurrent-runs', { type: 'number', default: 1, describe: 'Runs at once over all implementations (one per implementation in any case); each is a Playwright process with its workers' })
      .option('secret-env', {
        type: 'string',
        array: true,
        describe: "An environment variable of this server that stored profiles may read as a secret (env:NAME where a secret goes); NAME or a prefix ending in * (ACME_*); repeat for more. Default none: each run brings its own (\"secrets\" with the run)",
      })
      .option('allow-target', {
        type: 'string',
        array: true,
        describe:
          "A host that runs and Check may call: a name, *.suffix, an address or a CIDR; repeat for more. Default: any host but link-local and cloud metadata addresses, 0.0.0.0, this server's own address and (unless this server is on loopback) loopback",
      })
      .option('profile-files', { type: 'string', describe: "A folder for the files profiles may name (http.ca, http.cert, http.key, auth.jwksFile, webhooks.signature.jwksFile), as paths inside it. Default none: a profile naming a file is refused" })
      .option('max-queued-runs', { type: 'number', default: DEFAULT_MAX_QUEUED_RUNS, describe: 'Runs that may wait at once over all tokens; one more is refused (429, Retry-After)' })
      .option('max-queued-runs-per-token', { type: 'number', default: DEFAULT_MAX_QUEUED_RUNS_PER_TOKEN, describe: 'Runs that may wait at once for one token (API or console); one more is refused (429, Retry-After)' })
      .check((argv) => {
        if (!Number.isInteger(argv.port) || argv.port < 0 || argv.port > 65535) throw new ConfigError(`--port must be 0 to 65535; got ${argv.port}`);
        const max = argv.maxConcurrentRuns as number;
        if (!Number.isInteger(max) || max < 1) throw new ConfigError(`--max-concurrent-runs must be a whole number of at least 1; got ${max}`);
        for (const [flag, value] of [
          ['--max-queued-runs', argv.maxQueuedRuns],
          ['--max-queued-runs-per-token', argv.maxQueuedRunsPerToken],
        ] as const) {
          if (!Number.isInteger(value) || (value as number) < 1) throw new ConfigError(`${flag} must be a whole number of at least 1; got ${value}`);
        }
        if (Boolean(argv.tlsCert) !== Boolean(argv.tlsKey)) throw new ConfigError('--tls-cert and --tls-key go together: give both PEM files');
        return true;
      })
      .example('$0 serve', 'Serve on http://127.0.0.1:7300 with the store in ./ptas-data (the first start prints a token)')
      .example('$0 serve token create --name ci-nightly', 'A bearer token for CI')
      .example('$0 serve --host 0.0.0.0 --tls-cert cert.pem --tls-key key.pem', 'Serve HTTPS to the network')
      .example('$0 serve --secret-env PTAS_CLIENT_SECRET --allow-target sandbox.acme.example', "Profiles may read PTAS_CLIENT_SECRET from this server's environment, and runs may call only that host")
      .epilog(
        'The API (README "The console and its API"): every /api route takes Authorization: Bearer <token>. Runs wait in a queue, one at a time per implementation; ' +
          'at most --max-queued-runs wait at once, --max-queued-runs-per-token for one token (a run more is refused: 429 with Retry-After). A request must arrive whole within 60 s. ' +
          'A run the server was running when it stopped is finished INCOMPLETE at the next start, its partial bundle kept; console sessions outlive a restart (the store keeps their hashes).\n\n' +
          `Exit codes: 0 stopped (SIGINT or SIGTERM), ${EXIT.USAGE} usage or config error (a non-loopback --host without TLS, a port in use).`,
      ) as unknown as Argv<ServeArgs>,
  handler: async (args) => {
    try {
      const [{ createServer }, { describePolicy }, { logValue }, { registerConsoleOnServer }] = await Promise.all([
        import('../app/serve/server.ts'),
        import('../app/serve/profile-policy.ts'),
        import('../app/serve/log.ts'),
        import('../app/serve/console-on-server.ts'),
      ]);
      const server = await createServer({
        host: args.host,
        port: args.port,
        dataDir: args.data,
        maxConcurrentRuns: args.maxConcurrentRuns,
        ...(args.secretEnv ? { secretEnv: args.secretEnv } : {}),
        ...(args.allowTarget ? { allowTargets: args.allowTarget } : {}),
        ...(args.profileFiles ? { profileFiles: args.profileFiles } : {}),
        maxQueuedRuns: args.maxQueuedRuns,
        maxQueuedRunsPerToken: args.maxQueuedRunsPerToken,
        // The console in the browser: its pages, login and live views over the same services as the API.
        registerExtra: registerConsoleOnServer,
        ...(args.tlsCert && args.tlsKey ? { tls: { certFile: args.tlsCert, keyFile: args.tlsKey } } : {}),
      });
      // One write: whoever reads the address also gets the token with it.
      const lines = [`ptas serve: listening on ${server.url} (store: ${server.services.dataDir}); the console: open ${server.url}/ in a browser`];
      for (const line of describePolicy(server.services.policy)) lines.push(`ptas serve: ${line}`);
      for (const run of server.recovered) lines.push(`ptas serve: run ${run.id} of ${logValue(run.implementation)}: ${run.note}; finished INCOMPLETE`);
      if (server.firstRunToken) {
        lines.push(`ptas serve: first-run token "${server.firstRunToken.name}", shown this once (the store keeps only its SHA-256); log in to the console or call the API with it:`);
        lines.push(server.firstRunToken.token);
      }
      process.stdout.write(`${lines.join('\n')}\n`);
      const stop = (signal: NodeJS.Signals) => {
        process.stderr.write(`\nptas serve: ${signal}: stopping the runs (each keeps a partial bundle) and the server${signal === 'SIGINT' ? ' (Ctrl-C again to quit at once)' : ''}\n`);
        process.once('SIGINT', () => process.exit(EXIT.INTERRUPTED));
        void server.close().then(() => process.exit(0));
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    } catch (error) {
      fail(error);
    }
  },
};
