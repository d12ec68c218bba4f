// `ptas init`: writes a commented starter profile (app/init/init.ts). At a
// terminal it asks a few questions; with --yes, or without a terminal (CI),
// it asks nothing and writes what the flags say.
import type { Argv, CommandModule } from 'yargs';
import { EXIT } from '../src/exit-codes.ts';
import { DEFAULT_PROFILE_FILE, PRESETS, type Preset } from '../app/init/preset-names.ts';
import { fail } from './connection.ts';

interface InitArgs {
  baseUrl: string;
  out: string;
  clientId?: string;
  name?: string;
  jwksUrl?: string;
  jwksBearer?: boolean;
  webhookJwksUrl?: string;
  preset?: Preset;
  force: boolean;
  yes: boolean;
  interactive: boolean;
}

export const initCommand: CommandModule<object, InitArgs> = {
  command: 'init',
  describe: 'Write a commented starter profile that names, for each key, the checks it unlocks',
  builder: (y: Argv) =>
    y
      .option('base-url', { type: 'string', default: 'http://127.0.0.1:8080', describe: 'Base URL of the implementation' })
      .option('out', { alias: 'o', type: 'string', default: DEFAULT_PROFILE_FILE, describe: 'The profile file to write (JSON with comments)' })
      .option('client-id', { type: 'string', describe: 'client_id of the test client (default: "env:PTAS_CLIENT_ID", read at run time)' })
      .option('name', { type: 'string', describe: "Implementation name shown in the report (default: the base URL's host)" })
      .option('jwks-url', { type: 'string', describe: 'auth.jwksUrl: URL or path of the JSON Web Key Set that verifies access tokens' })
      .option('jwks-bearer', { type: 'boolean', describe: "auth.jwksAccess \"bearer\": JSON Web Key Sets are fetched with the partner's access token" })
      .option('webhook-jwks-url', { type: 'string', describe: 'webhooks.signature: RFC 9421 signatures, verified with the JSON Web Key Set at this URL or path' })
      .option('preset', { type: 'string', choices: PRESETS, describe: 'Write a complete profile for the bundled reference (as `ptas reference` starts it, or with --deployed-api) instead of the starter: nothing to fill in, no question asked' })
      .option('force', { type: 'boolean', default: false, describe: 'Overwrite the file if it exists' })
      .option('yes', { alias: 'y', type: 'boolean', default: false, describe: 'Ask nothing: take the flags and defaults (also without a terminal)' })
      .option('interactive', { type: 'boolean', default: true, describe: 'Ask at a terminal; --no-interactive is --yes' })
      .example('$0 init', 'Answer a few questions, get ptas-profile.jsonc')
      .example('$0 init --preset deployed-api --base-url http://127.0.0.1:8080', 'A complete profile for `ptas reference --deployed-api` on port 8080')
      .example('$0 init --yes --base-url https://sandbox.example.com --client-id partner-a --jwks-bearer -o profiles/sandbox.jsonc', 'The same in CI, from flags alone')
      .epilog('Exit codes: 0 written, 2 the file exists (without --force) or a flag is invalid, 130 cancelled at a question (nothing written).') as unknown as Argv<InitArgs>,
  handler: async (args) => {
    // Loaded here, not at the top: every other command starts without the starter profile and its schema.
    const [{ nextSteps, runInit }, { QuestionsCancelled }] = await Promise.all([import('../app/init/init.ts'), import('../app/init/questions.ts')]);
    try {
      const interactive = args.interactive && !args.yes && Boolean(process.stdin.isTTY && process.stdout.isTTY);
      const result = await runInit({
        out: args.out,
        force: args.force,
        interactive,
        ...(args.preset ? { preset: args.preset } : {}),
        answers: {
          name: args.name ?? '',
          baseUrl: args.baseUrl,
          clientId: args.clientId,
          jwksUrl: args.jwksUrl,
          jwksNeedsBearer: args.jwksBearer,
          webhookJwksUrl: args.webhookJwksUrl,
        },
      });
      process.stdout.write(nextSteps(result, args.out));
    } catch (error) {
      if (error instanceof QuestionsCancelled) {
        process.stderr.write(`\nptas: init ${error.message}\n`);
        process.exit(EXIT.INTERRUPTED);
      }
      fail(error);
    }
  },
};
