// The data of the trend page (`ptas report --history`): nights in order, a
// grid of checks × nights with each verdict (absent where a check did not
// run that night), the verdict counts per night, the headline load figures
// per night, and the regressions. A regression is what
// `ptas report --baseline --fail-on-regression` gates on (reports/baseline.ts):
// a check that FAILs, is FLAKY or ERRORs now and did not the night before —
// one that passed, warned or was skipped, or a new check that fails at once.
// And the unstable checks, as `ptas serve` shows them
// (src/results/instability.ts): a check whose verdict differs between nights
// of the same suite version and profile.
import { observedRun, unstableChecks, type UnstableCheck } from '../src/results/instability.ts';
import { loadFigures, type FigureUnit } from './load-figures.ts';
import type { Night } from './history-read.ts';
import { tallyVerdicts, type VerdictCount } from './verdict-tally.ts';

export interface HistoryNight {
  file: string;
  startedAt: string;
  /** The run verdict as written (a newer ptas may write one this version does not know). */
  verdict: string;
  target: string;
  suiteVersion?: string;
  counts: VerdictCount[];
  /** Problems outside any check. */
  errors: number;
  /** Checks of this night that are regressions since the night before. */
  regressions: number;
}

export interface HistoryCell {
  /** Absent: the check did not run that night. */
  verdict?: string;
  reason?: string;
  regression: boolean;
}

export interface HistoryRow {
  id: string;
  target: string;
  title: string;
  requirements: string[];
  /** One per night, in night order. */
  cells: HistoryCell[];
  /** How often each verdict was given over the nights (zero counts left out). */
  tally: VerdictCount[];
  /** Index of the last night this check regressed, or -1. */
  lastRegression: number;
  /** Its verdict differs between nights of the same suite version and profile (History.unstable says how). */
  unstable: boolean;
}

/** One headline load figure over the nights (undefined where a night did not measure it). */
export interface FigureSeries {
  subject: string;
  figure: string;
  unit: FigureUnit;
  values: Array<number | undefined>;
}

export interface History {
  nights: HistoryNight[];
  rows: HistoryRow[];
  figures: FigureSeries[];
  /** The checks whose verdict differs between nights of the same suite version and profile, the latest change first; each night is named by its file. */
  unstable: UnstableCheck[];
  /** More than one target across the nights: the grid names each row's. */
  manyTargets: boolean;
}

/** The figures the trend page draws: where the rate limit starts, where the size limit is, how slow the load profiles got. */
export const TREND_FIGURES = ['429 onset', 'smallest 413 body', 'p95 latency'] as const;

// FLAKY (a merged run's fail-then-pass) is failing, as in reports/baseline.ts.
const FAILING = new Set(['FAIL', 'FLAKY', 'ERROR']);

export function isRegression(before: string | undefined, after: string | undefined): boolean {
  return after !== undefined && FAILING.has(after) && !(before !== undefined && FAILING.has(before));
}

const keyOf = (target: string, id: string): string => `${target}\u0000${id}`;

function rowsOf(nights: readonly Night[]): HistoryRow[] {
  const rows = new Map<string, HistoryRow>();
  nights.forEach((night, n) => {
    for (const check of night.results.checks) {
      const key = keyOf(check.target, check.id);
      let row = rows.get(key);
      if (!row) {
        row = { id: check.id, target: check.target, title: check.title, requirements: check.requirements, cells: nights.map(() => ({ regression: false })), tally: [], lastRegression: -1, unstable: false };
        rows.set(key, row);
      }
      row.title = check.title;
      row.requirements = check.requirements;
      row.cells[n] = { verdict: check.verdict, reason: check.reason, regression: false };
    }
  });
  for (const row of rows.values()) {
    row.cells.forEach((cell, n) => {
      // The first night has no night before it: nothing there is a regression.
      cell.regression = n > 0 && isRegression(row.cells[n - 1]!.verdict, cell.verdict);
      if (cell.regression) row.lastRegression = n;
    });
    row.tally = tallyVerdicts(row.cells.filter((c) => c.verdict !== undefined) as Array<{ verdict: string }>).filter((t) => t.count > 0);
  }
  // Rows that regressed come first, the latest regression on top; the rest by id.
  return [...rows.values()].sort((a, b) => b.lastRegression - a.lastRegression || a.id.localeCompare(b.id) || a.target.localeCompare(b.target));
}

function figuresOf(nights: readonly Night[]): FigureSeries[] {
  const series = new Map<string, FigureSeries>();
  nights.forEach((night, n) => {
    for (const f of loadFigures(night.results.load)) {
      if (!(TREND_FIGURES as readonly string[]).includes(f.figure)) continue;
      const key = `${f.subject}\u0000${f.figure}`;
      if (!series.has(key)) series.set(key, { subject: f.subject, figure: f.figure, unit: f.unit, values: nights.map(() => undefined) });
      series.get(key)!.values[n] = f.value;
    }
  });
  const order = (s: FigureSeries) => (TREND_FIGURES as readonly string[]).indexOf(s.figure);
  return [...series.values()].sort((a, b) => order(a) - order(b) || a.subject.localeCompare(b.subject));
}

export function buildHistory(nights: readonly Night[]): History {
  const rows = rowsOf(nights);
  const unstable = unstableChecks(nights.map(({ file, results }) => observedRun(file, results)));
  for (const row of rows) row.unstable = unstable.some((u) => u.id === row.id && u.target === row.target);
  const summaries: HistoryNight[] = nights.map(({ file, results }, n) => ({
    file,
    startedAt: results.run.startedAt,
    verdict: results.verdict,
    target: results.run.target,
    suiteVersion: results.run.suiteVersion,
    counts: tallyVerdicts(results.checks),
    errors: results.errors.length,
    regressions: rows.filter((r) => r.cells[n]!.regression).length,
  }));
  return { nights: summaries, rows, figures: figuresOf(nights), unstable, manyTargets: new Set(rows.map((r) => r.target)).size > 1 };
}
