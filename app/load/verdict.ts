// What a `ptas load` command ends with: the verdict of the one analysis and
// its exit code.
import type { LoadVerdict } from '../../load/probes/analyze.ts';
import { EXIT } from '../../src/exit-codes.ts';

export type Verdict = { verdict: LoadVerdict; reason: string };

export interface LoadCommandOutcome extends Verdict {
  exitCode: number;
  file: string;
}

/** FAIL ends with 1, ERROR (a threshold that could not be judged) with 5 (incomplete), the rest with 0. */
export function exitCodeOfVerdict(verdict: LoadVerdict): number {
  return verdict === 'FAIL' ? EXIT.NOT_CONFORMANT : verdict === 'ERROR' ? EXIT.INCOMPLETE : EXIT.CONFORMANT;
}
