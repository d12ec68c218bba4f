// How `ptas run` and `ptas explore` take Ctrl-C: the first stops the run,
// which writes a partial report marked INCOMPLETE; the second leaves at once.
import { EXIT } from '../src/exit-codes.ts';

export function stopOnInterrupt(): AbortSignal {
  const abort = new AbortController();
  process.once('SIGINT', () => {
    process.stderr.write('\nptas: interrupted; stopping and writing a partial report (Ctrl-C again to quit at once)\n');
    abort.abort();
    process.once('SIGINT', () => process.exit(EXIT.INTERRUPTED));
  });
  return abort.signal;
}
