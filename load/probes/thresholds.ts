// The verdict of a load profile (smoke, average-load, stress, spike, soak):
// its k6 thresholds, judged on the whole run — one engine's, or the merge of
// a distributed run's instances. A threshold that had nothing to judge (no
// latency sample, no measured answer, no arrival in the phases it names) is
// an ERROR: "p(95)<500 over no answers" holds vacuously, and a PASS must
// rest on something observed. Thresholds are the user's performance targets
// (or the scenario's defaults), not sentences of the spec: a crossed one is
// "thresholds crossed" (its own exit code, as k6 has), never a verdict on
// conformance.
import type { NormalizedRun } from '../result/normalized.ts';

export interface ThresholdVerdict {
  verdict: 'PASS' | 'FAIL' | 'ERROR';
  reason: string;
  /** What decided it: the run's thresholds, not a rule of the spec. */
  judgedBy: 'thresholds';
}

const named = (t: { metric: string; expression: string }) => `${t.metric} ${t.expression}`;

export function thresholdVerdict(run: NormalizedRun): ThresholdVerdict {
  const unjudged = run.thresholds.filter((t) => t.samples === 0);
  const failed = run.thresholds.filter((t) => !t.ok && t.samples !== 0);
  if (failed.length) return { verdict: 'FAIL', judgedBy: 'thresholds', reason: `thresholds crossed: ${failed.map(named).join(', ')}` };
  if (unjudged.length) return { verdict: 'ERROR', judgedBy: 'thresholds', reason: `thresholds over zero samples, so not judged: ${unjudged.map(named).join(', ')}` };
  return { verdict: 'PASS', judgedBy: 'thresholds', reason: `all ${run.thresholds.length} thresholds held${run.generator.saturated ? ` (note: ${run.generator.reason})` : ''}` };
}
