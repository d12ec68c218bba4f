// `ptas load`: run one load scenario (not implemented yet).
import type { CommandModule } from 'yargs';

export const loadCommand: CommandModule = {
  command: 'load',
  describe: 'Run a load scenario or probe on its own (not implemented yet)',
  handler: () => {
    process.stderr.write('ptas load: not implemented yet\n');
    process.exitCode = 2;
  },
};
