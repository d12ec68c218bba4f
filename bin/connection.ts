// What several commands share: the options that name and reach a target,
// the profile they resolve to (file, then PTAS_* environment, then flags;
// env: references last), and how an error ends the command (its exit code
// comes from its code: src/errors.ts).
import type { Argv } from 'yargs';
import { applyOverrides, overridesFromEnv, readProfileFile, resolveEnvReferences, type ProfileOverrides } from '../src/config/load.ts';
import type { Profile } from '../src/config/profile.ts';
import { EXIT } from '../src/exit-codes.ts';
import { exitCodeOf, PtasError } from '../src/errors.ts';

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

/** Prints what went wrong and exits with the code its kind of problem maps to (src/errors.ts). */
export function fail(error: unknown): never {
  const exitCode = exitCodeOf(error);
  process.stderr.write(`ptas: ${failureText(error, exitCode)}\n`);
  process.exit(exitCode);
}

/** The message as the user reads it; a bug in ptas (exit 4) shows its stack. */
export function failureText(error: unknown, exitCode: number): string {
  if (exitCode === EXIT.INTERNAL || !(error instanceof PtasError)) {
    return `internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
  }
  if (error.code === 'config') return `configuration error:\n${error.message.replace(/^/gm, '  ')}`;
  return error.message;
}

