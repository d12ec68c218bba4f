// `ptas report`: re-render a report from saved results (not implemented yet).
import type { CommandModule } from 'yargs';

export const reportCommand: CommandModule = {
  command: 'report',
  describe: 'Re-render a report from results.json (not implemented yet)',
  handler: () => {
    process.stderr.write('ptas report: not implemented yet\n');
    process.exitCode = 2;
  },
};
