// `ptas doctor`: try each operation a profile configures once and say, per
// operation, whether the profile describes it right (app/doctor/).
import type { Argv, CommandModule } from 'yargs';
import { connectionOptions, fail, profileFrom, type ConnectionArgs } from './connection.ts';

interface DoctorArgs extends ConnectionArgs {
  json?: boolean;
}

export const doctorCommand: CommandModule<object, DoctorArgs> = {
  command: 'doctor',
  describe: 'Try each operation the profile configures once (a few requests, no verdicts) and show which template is broken and how to fix it',
  builder: (y: Argv) =>
    connectionOptions(y)
      .option('json', { type: 'boolean', describe: 'Print one JSON object instead of the table' })
      .example('$0 doctor', 'Examine the bundled reference with its own profile')
      .example('$0 doctor -c profile.json --base-url https://sandbox.example.com', 'Check a profile against a partner sandbox before the first run')
      .epilog(
        'Steps: token, user details, trading.createUser, each offer recipe (created, and accepted when it declares acceptAnswers), the offer status, ' +
          'webhook registration and trigger (with the suite receiver up) and the delivery signature, a withdrawal address, the JWK Sets.\n' +
          'Exit codes: 0 every configured operation works, 2 a template or key is broken (each named on stderr) or a usage or config error, 3 target unreachable, 4 internal error.',
      ) as unknown as Argv<DoctorArgs>,
  handler: async (args) => {
    try {
      const { runDoctor } = await import('../app/doctor/run-doctor.ts');
      const outcome = await runDoctor({ profile: profileFrom(args), profileFile: args.config, json: args.json });
      process.exitCode = outcome.exitCode;
    } catch (error) {
      fail(error);
    }
  },
};
