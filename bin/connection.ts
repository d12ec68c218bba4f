// What several commands share: the options that name and reach a target,
// the profile they resolve to (file, then PTAS_* environment, then flags;
// env: references last), and the mapping of errors to exit codes.
import type { Argv } from 'yargs';
import { ConfigError } from '../src/config/errors.ts';
import { applyOverrides, overridesFromEnv, readProfileFile, resolveEnvReferences, type ProfileOverrides } from '../src/config/load.ts';
import type { Profile } from '../src/config/profile.ts';
import { EXIT } from '../src/exit-codes.ts';
import { UnreachableError } from '../app/run/preflight.ts';

export interface ConnectionArgs extends ProfileOverrides {
  config?: string;
}

export function connectionOptions<T>(y: Argv<T>) {
  return y
    .option('base-url', { type: 'string', describe: 'Base URL of the implementation under test; omit it to test the bundled reference' })
    .option('config', { alias: 'c', type: 'string', describe: 'Implementation profile (JSON, comments allowed; write one with `ptas init`; schema: schemas/config.schema.json)' })
    .option('client-id', { type: 'string', describe: 'client_id for the token endpoint' })
    .option('client-secret', { type: 'string', describe: 'client_secret (prefer PTAS_CLIENT_SECRET: flags show in ps)' })
    .option('timeout-ms', { type: 'number', describe: 'Per-request time limit in milliseconds' })
    .option('ca', { type: 'string', describe: 'PEM CA bundle to trust for an https target' })
    .option('cert', { type: 'string', describe: 'PEM client certificate for mTLS' })
    .option('key', { type: 'string', describe: 'PEM private key of the client certificate' })
    .option('insecure', { type: 'boolean', describe: 'Skip TLS certificate verification (recorded in the report)' });
}

/** File, then environment, then flags; env: references resolved last. */
export function profileFrom(args: ConnectionArgs): Profile {
  const fromFile: Profile = args.config ? readProfileFile(args.config) : {};
  const withEnv = applyOverrides(fromFile, overridesFromEnv(process.env), 'environment (PTAS_*)');
  const flags: ProfileOverrides = {
    baseUrl: args.baseUrl,
    clientId: args.clientId,
    clientSecret: args.clientSecret,
    timeoutMs: args.timeoutMs,
    ca: args.ca,
    cert: args.cert,
    key: args.key,
    insecure: args.insecure,
  };
  const merged = applyOverrides(withEnv, flags, 'command-line flags');
  return resolveEnvReferences(merged, process.env);
}

/** Prints what went wrong and exits with the code that says what kind of problem it was. */
export function fail(error: unknown): never {
  if (error instanceof ConfigError) {
    process.stderr.write(`ptas: configuration error:\n${error.message.replace(/^/gm, '  ')}\n`);
    process.exit(EXIT.USAGE);
  }
  if (error instanceof UnreachableError) {
    process.stderr.write(`ptas: ${error.message}\n`);
    process.exit(EXIT.UNREACHABLE);
  }
  process.stderr.write(`ptas: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(EXIT.INTERNAL);
}

