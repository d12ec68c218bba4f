// handleSummary() data → the normalized result. Runs inside k6 (pure code).
// k6 has two summary shapes: the classic one (metrics keyed by name, each
// {type, values, thresholds}) and the machine-readable one of k6 ≥ 1
// (results.metrics as an array of {name, values}); both are read.
import { ANSWERS, DROPPED, FAILED, LATENCY, OUTCOMES } from '../scenarios/metrics.ts';
import { durationSec } from '../scenarios/duration.ts';
import type { ArrivalExecutor, LoadScenario } from '../scenarios/types.ts';
import { emptyAnswers, isNoOpThreshold, RESULT_FORMAT, type LatencyStats, type NormalizedRun, type PhaseResult, type ThresholdResult } from './normalized.ts';

type Values = Record<string, number>;

interface ClassicMetric {
  values?: Values;
  thresholds?: Record<string, { ok: boolean }>;
}

export interface K6SummaryData {
  metrics?: Record<string, ClassicMetric>;
  results?: { metrics?: Array<{ name: string; values?: Values; thresholds?: Record<string, { ok: boolean }> }> };
  state?: { testRunDurationMs?: number };
}

function metric(data: K6SummaryData, name: string): ClassicMetric | undefined {
  if (data.metrics && data.metrics[name]) return data.metrics[name];
  const found = data.results?.metrics?.find((m) => m.name === name);
  return found ? { values: found.values, thresholds: found.thresholds } : undefined;
}

function value(data: K6SummaryData, name: string, key: string): number {
  const v = metric(data, name)?.values?.[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

function latency(data: K6SummaryData, name: string): LatencyStats | undefined {
  const values = metric(data, name)?.values;
  if (!values || !values['max']) return undefined;
  return {
    count: values['count'] ?? 0,
    avgMs: values['avg'] ?? 0,
    p50Ms: values['p(50)'] ?? values['med'] ?? 0,
    p90Ms: values['p(90)'] ?? 0,
    p95Ms: values['p(95)'] ?? 0,
    p99Ms: values['p(99)'] ?? 0,
    maxMs: values['max'] ?? 0,
  };
}

/** Samples a trend or rate threshold was judged over (k6 keeps no entry for a metric without one); undefined for counters. */
function samplesOf(data: K6SummaryData, name: string): number | undefined {
  const base = name.split('{')[0];
  const values = metric(data, name)?.values;
  if (base === LATENCY) return values?.['count'] ?? 0;
  if (base === FAILED) return (values?.['passes'] ?? 0) + (values?.['fails'] ?? 0);
  return undefined;
}

function plannedRate(executor: ArrivalExecutor): { rate: number; sec: number } {
  const unit = durationSec(executor.timeUnit ?? '1s');
  if (executor.executor === 'constant-arrival-rate') return { rate: executor.rate / unit, sec: durationSec(executor.duration) };
  let area = 0;
  let sec = 0;
  let from = executor.startRate ?? 0;
  for (const stage of executor.stages) {
    const d = durationSec(stage.duration);
    area += ((from + stage.target) / 2) * d;
    sec += d;
    from = stage.target;
  }
  return { rate: sec ? area / sec / unit : 0, sec };
}

export function normalizeK6Summary(data: K6SummaryData, scenario: LoadScenario, startedAt: string): NormalizedRun {
  const phases: PhaseResult[] = Object.entries(scenario.scenarios).map(([name, executor]) => {
    const answers = emptyAnswers();
    for (const outcome of OUTCOMES) answers[outcome] = value(data, `${ANSWERS}{phase:${name},outcome:${outcome}}`, 'count');
    const sent = OUTCOMES.reduce((sum, o) => sum + answers[o], 0);
    const { rate, sec } = plannedRate(executor);
    return {
      name,
      tags: { ...(executor.tags ?? {}) },
      offeredRps: rate,
      startSec: durationSec(executor.startTime ?? '0s'),
      durationSec: sec,
      sent,
      dropped: value(data, `${DROPPED}{scenario:${name}}`, 'count'),
      answers,
      statusCounts: {},
      latency: {
        all: latency(data, `${LATENCY}{phase:${name}}`),
        '2xx': latency(data, `${LATENCY}{phase:${name},outcome:2xx}`),
        '429': latency(data, `${LATENCY}{phase:${name},outcome:429}`),
      },
      achievedRps: sec ? sent / sec : 0,
    };
  });
  const thresholds: ThresholdResult[] = [];
  for (const [name, expressions] of Object.entries(scenario.thresholds)) {
    for (const expression of expressions) {
      if (isNoOpThreshold(expression)) continue;
      const verdict = metric(data, name)?.thresholds?.[expression];
      const samples = samplesOf(data, name);
      // A counter with no sample has no entry and counts 0 (no dropped iterations); a trend or rate without one could not be judged.
      thresholds.push({ metric: name, expression, ok: samples !== 0 && (verdict ? verdict.ok : true), ...(samples !== undefined ? { samples } : {}) });
    }
  }
  const dropped = value(data, DROPPED, 'count');
  return {
    format: RESULT_FORMAT,
    version: 1,
    engine: 'k6',
    scenario: scenario.name,
    startedAt,
    durationMs: data.state?.testRunDurationMs ?? 0,
    phases,
    thresholds,
    timeSeries: [],
    headerSamples: [],
    generator: dropped > 0 ? { saturated: true, reason: `k6 dropped ${dropped} iterations: raise maxVUs or lower the rate` } : { saturated: false },
  };
}
