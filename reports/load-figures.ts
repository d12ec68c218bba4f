// The headline figures of a load section, keyed so two runs can be compared:
// the 429 onset and limit, the 413 boundary, each profile's rate, latency and
// error share. Each figure says which direction is worse and how much change
// is noise, so a nightly comparison does not flag jitter.
import type { LoadSection } from '../src/results/load-model.ts';

export type FigureUnit = 'req/s' | 'bytes' | 'ms' | 'share' | 'requests';

export interface LoadFigure {
  /** What was measured: a probe's check id or a profile's scenario, with its operation. */
  subject: string;
  figure: string;
  unit: FigureUnit;
  value: number;
  /** Which way is worse; 'none' for limits, whose change is news but not a regression. */
  worse: 'up' | 'down' | 'none';
  /** Changes within this are noise: relative for rates and latencies, absolute for shares. */
  tolerance: { relative?: number; absolute?: number };
}

const LIMIT = { relative: 0 };
const RATE = { relative: 0.05 };
const LATENCY = { relative: 0.1, absolute: 1 };
const SHARE = { absolute: 0.01 };

export function loadFigures(load: LoadSection | undefined): LoadFigure[] {
  if (!load) return [];
  const figures: LoadFigure[] = [];
  for (const probe of load.probes) {
    const subject = `${probe.checkId} (${probe.operation})`;
    if (probe.kind === 'rate-limit') {
      if (probe.onsetRps !== undefined) figures.push({ subject, figure: '429 onset', unit: 'req/s', value: probe.onsetRps, worse: 'none', tolerance: LIMIT });
      if (probe.estimatedLimitRps !== undefined) {
        figures.push({ subject, figure: 'estimated limit', unit: 'req/s', value: probe.estimatedLimitRps, worse: 'none', tolerance: RATE });
      }
      const sent = probe.steps.reduce((a, s) => a + s.sent, 0);
      const serverErrors = probe.steps.reduce((a, s) => a + s.serverErrors, 0);
      if (sent > 0) figures.push({ subject, figure: '5xx share under load', unit: 'share', value: serverErrors / sent, worse: 'up', tolerance: SHARE });
    } else {
      if (probe.largestAcceptedBytes !== undefined) {
        figures.push({ subject, figure: 'largest accepted body', unit: 'bytes', value: probe.largestAcceptedBytes, worse: 'none', tolerance: LIMIT });
      }
      if (probe.smallestRejectedBytes !== undefined) {
        figures.push({ subject, figure: 'smallest 413 body', unit: 'bytes', value: probe.smallestRejectedBytes, worse: 'none', tolerance: LIMIT });
      }
    }
  }
  for (const run of load.profiles) {
    const subject = `profile ${run.scenario} (${run.operation})`;
    const ok = Object.entries(run.statusCounts)
      .filter(([code]) => code.startsWith('2'))
      .reduce((a, [, n]) => a + n, 0);
    figures.push(
      { subject, figure: 'achieved rate', unit: 'req/s', value: run.achievedRps, worse: 'down', tolerance: RATE },
      { subject, figure: 'p50 latency', unit: 'ms', value: run.latency.p50Ms, worse: 'up', tolerance: LATENCY },
      { subject, figure: 'p95 latency', unit: 'ms', value: run.latency.p95Ms, worse: 'up', tolerance: LATENCY },
      { subject, figure: 'p99 latency', unit: 'ms', value: run.latency.p99Ms, worse: 'up', tolerance: LATENCY },
      { subject, figure: 'non-2xx share', unit: 'share', value: run.requests ? 1 - ok / run.requests : 0, worse: 'up', tolerance: SHARE },
      { subject, figure: 'dropped arrivals', unit: 'requests', value: run.dropped, worse: 'up', tolerance: { relative: 0.1, absolute: 10 } },
    );
  }
  return figures;
}

export function figureKey(f: Pick<LoadFigure, 'subject' | 'figure'>): string {
  return `${f.subject} ${f.figure}`;
}

/** True when the change from before to after is larger than the figure's noise. */
export function beyondTolerance(figure: LoadFigure, before: number): boolean {
  const delta = Math.abs(figure.value - before);
  if (delta === 0) return false;
  const { relative, absolute } = figure.tolerance;
  const relOk = relative === undefined || delta > relative * Math.abs(before);
  const absOk = absolute === undefined || delta > absolute;
  return relOk && absOk;
}
