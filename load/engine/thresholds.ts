// k6 threshold expressions ("p(95)<500", "rate<0.01", "count==0") evaluated
// on what the embedded engine recorded — or on instances merged
// (load/distributed) — for the metrics the scenarios use
// (load/scenarios/metrics.ts), with sub-metric tag filters {phase, outcome, scenario}.
// Each result says how many samples it was judged over: a threshold over
// none is not held, it could not be judged (ERROR, load/probes/thresholds.ts).
import { ANSWERS, DROPPED, FAILED, LATENCY, OUTCOMES, type Outcome } from '../scenarios/metrics.ts';
import { isNoOpThreshold, type ThresholdResult } from '../result/normalized.ts';
import { merged, percentileMs, type Histogram } from './histogram.ts';

/** What a threshold reads of a phase (a PhaseRecorder, or the merge of instances' phases). */
export interface ThresholdPhase {
  readonly name: string;
  readonly answers: Record<Outcome, number>;
  readonly sent: number;
  readonly dropped: number;
  readonly histograms: ReadonlyMap<Outcome, Histogram>;
}

const EXPRESSION = /^\s*(count|rate|avg|min|max|med|value|p\((\d+(?:\.\d+)?)\))\s*(<=|>=|===|==|!=|<|>)\s*(-?\d+(?:\.\d+)?)\s*$/;

export function parseMetricName(name: string): { metric: string; tags: Record<string, string> } {
  const match = /^([^{]+)(?:\{(.*)\})?$/.exec(name.trim());
  if (!match) throw new Error(`not a metric name: ${name}`);
  const tags: Record<string, string> = {};
  for (const part of (match[2] ?? '').split(',').filter(Boolean)) {
    const [k, ...v] = part.split(':');
    tags[k!.trim()] = v.join(':').trim();
  }
  return { metric: match[1]!.trim(), tags };
}

function compare(actual: number, op: string, expected: number): boolean {
  switch (op) {
    case '<':
      return actual < expected;
    case '<=':
      return actual <= expected;
    case '>':
      return actual > expected;
    case '>=':
      return actual >= expected;
    case '!=':
      return actual !== expected;
    default:
      return actual === expected;
  }
}

function phasesFor(recorders: ThresholdPhase[], tags: Record<string, string>): ThresholdPhase[] {
  const phase = tags.phase ?? tags.scenario;
  return phase ? recorders.filter((r) => r.name === phase) : recorders;
}

function outcomesFor(tags: Record<string, string>): Outcome[] {
  return tags.outcome ? OUTCOMES.filter((o) => o === tags.outcome) : [...OUTCOMES];
}

function trendValue(histograms: Histogram[], aggregate: string, percentile?: string): number {
  if (histograms.length === 0) return 0;
  const sum = merged(histograms);
  try {
    if (percentile) return percentileMs(sum, Number(percentile));
    if (aggregate === 'avg') return sum.mean / 1000;
    if (aggregate === 'min') return sum.minNonZeroValue / 1000;
    if (aggregate === 'max') return sum.maxValue / 1000;
    return percentileMs(sum, 50);
  } finally {
    sum.destroy();
  }
}

export function evaluateThresholds(
  thresholds: Record<string, string[]>,
  recorders: ThresholdPhase[],
  totals: { measured: number; failed: number },
  runSec?: number,
): ThresholdResult[] {
  const results: ThresholdResult[] = [];
  for (const [name, expressions] of Object.entries(thresholds)) {
    const { metric, tags } = parseMetricName(name);
    const phases = phasesFor(recorders, tags);
    const outcomes = outcomesFor(tags);
    for (const expression of expressions) {
      if (isNoOpThreshold(expression)) continue;
      const match = EXPRESSION.exec(expression);
      if (!match) throw new Error(`threshold ${name}: cannot read "${expression}"`);
      const [, aggregate, percentile, op, limit] = match;
      let actual: number;
      let samples: number;
      if (metric === ANSWERS || metric === DROPPED) {
        const count =
          metric === DROPPED ? phases.reduce((s, p) => s + p.dropped, 0) : phases.reduce((s, p) => s + outcomes.reduce((t, o) => t + p.answers[o], 0), 0);
        actual = aggregate === 'rate' && runSec ? count / runSec : count;
        // A count is judged over the arrivals of the phases it names: none arrived, nothing was counted.
        samples = phases.reduce((s, p) => s + p.sent + p.dropped, 0);
      } else if (metric === LATENCY) {
        const histograms = phases.flatMap((p) => outcomes.map((o) => p.histograms.get(o)).filter((h): h is Histogram => Boolean(h)));
        actual = trendValue(histograms, aggregate!, percentile);
        samples = histograms.reduce((s, h) => s + h.totalCount, 0);
      } else if (metric === FAILED) {
        actual = totals.measured ? totals.failed / totals.measured : 0;
        samples = totals.measured;
      } else {
        throw new Error(`threshold on ${metric}: the embedded engine records ${[ANSWERS, LATENCY, FAILED, DROPPED].join(', ')}`);
      }
      results.push({ metric: name, expression, ok: samples > 0 && compare(actual, op!, Number(limit)), samples });
    }
  }
  return results;
}
