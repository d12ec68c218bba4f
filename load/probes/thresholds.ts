// The verdict of a load profile (smoke, average-load, stress, spike, soak):
// its k6 thresholds, judged on the whole run — one engine's, or the merge of
// a distributed run's instances. A threshold that had nothing to judge (no
// latency sample, no measured answer, no arrival in the phases it names) is
// an ERROR: "p(95)<500 over no answers" holds vacuously, and a PASS must
// rest on something observed.
import type { NormalizedRun } from '../result/normalized.ts';

export interface ThresholdVerdict {
  verdict: 'PASS' | 'FAIL' | 'ERROR';
  reason: string;
}

const named = (t: { metric: string; expression: string }) => `${t.metric} ${t.expression}`;

export function thresholdVerdict(run: NormalizedRun): ThresholdVerdict {
  const unjudged = run.thresholds.filter((t) => t.samples === 0);
  const failed = run.thresholds.filter((t) => !t.ok && t.samples !== 0);
  if (failed.length) return { verdict: 'FAIL', reason: `thresholds crossed: ${failed.map(named).join(', ')}` };
  if (unjudged.length) return { verdict: 'ERROR', reason: `thresholds over zero samples, so not judged: ${unjudged.map(named).join(', ')}` };
  return { verdict: 'PASS', reason: `all ${run.thresholds.length} thresholds held${run.generator.saturated ? ` (note: ${run.generator.reason})` : ''}` };
}
