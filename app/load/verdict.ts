// What a `ptas load` command ends with: the verdict of the one analysis and
// its exit code.
import type { LoadVerdict } from '../../load/probes/analyze.ts';
import { EXIT } from '../../src/exit-codes.ts';

/** judgedBy 'thresholds': a load profile's thresholds decided it (the user's targets), not a rule of the spec. */
export type Verdict = { verdict: LoadVerdict; reason: string; judgedBy?: 'thresholds' };

export interface LoadCommandOutcome extends Verdict {
  exitCode: number;
  file: string;
}

/**
 * A probe's FAIL (a 429 or 413 rule of the spec) ends with 1, a load
 * profile's crossed thresholds with 99 (k6's code: the user's targets, no
 * verdict on conformance), ERROR (a threshold that could not be judged) with
 * 5 (incomplete), the rest with 0.
 */
export function exitCodeOfVerdict({ verdict, judgedBy }: Pick<Verdict, 'verdict' | 'judgedBy'>): number {
  if (verdict === 'FAIL') return judgedBy === 'thresholds' ? EXIT.THRESHOLDS_CROSSED : EXIT.NOT_CONFORMANT;
  return verdict === 'ERROR' ? EXIT.INCOMPLETE : EXIT.CONFORMANT;
}
