// `ptas load merge`: the instances of one distributed run — k6 processes
// split by --execution-segment, k6-operator runners, embedded-engine
// processes — added into one normalized result, as if one generator had
// run the whole plan: counts summed per step and outcome, latency
// histograms added (exact percentiles), time-based records put on one
// clock, and the scenario's thresholds judged once, on the whole.
import { expectedOutcomes, OUTCOMES } from '../scenarios/metrics.ts';
import type { ErrorSample, NormalizedRun } from '../result/normalized.ts';
import { evaluateThresholds } from '../engine/thresholds.ts';
import type { RateLimitCriteria } from '../probes/rate-limit/model.ts';
import { checkInstances, type InstanceRun, type NamedInstance, type NamedRun } from './compatible.ts';
import { mergePhases } from './merge-phases.ts';
import { mergeTimelines, mergeTimeSeries } from './merge-series.ts';

export interface MergedRun {
  run: NormalizedRun;
  kind: 'rate-breakpoint' | 'profile';
  /** A staircase's criteria, as its instances carried them. */
  criteria?: RateLimitCriteria;
  instances: NamedInstance[];
}

function errorSamplesOf(runs: InstanceRun[]): ErrorSample[] {
  const seen = new Set<string>();
  const out: ErrorSample[] = [];
  for (const s of runs.flatMap((r) => r.errorSamples ?? [])) {
    const kind = `${s.status} ${s.headers['content-type'] ?? ''}`;
    if (!seen.has(kind)) out.push(s);
    seen.add(kind);
  }
  return out;
}

/** The instance with its segment, unless its name says it already. */
const named = (i: NamedInstance) => (i.name.includes(i.run.instance.segment) ? i.name : `${i.name} (${i.run.instance.segment})`);

function generatorOf(instances: NamedInstance[]): NormalizedRun['generator'] {
  const saturated = instances.filter((i) => i.run.generator.saturated);
  const lags = instances.map((i) => i.run.generator.scheduleLagP99Ms).filter((l): l is number => l !== undefined);
  const inFlight = instances.map((i) => i.run.generator.maxInFlight).filter((n): n is number => n !== undefined);
  return {
    saturated: saturated.length > 0,
    ...(saturated.length ? { reason: saturated.map((i) => `${named(i)}: ${i.run.generator.reason}`).join('; ') } : {}),
    ...(inFlight.length ? { maxInFlight: inFlight.reduce((s, n) => s + n, 0) } : {}),
    ...(lags.length ? { scheduleLagP99Ms: Math.max(...lags) } : {}),
  };
}

/** The instances as one run; throws LoadMergeRefused when they are not the parts of one. */
export function mergeInstances(given: NamedRun[]): MergedRun {
  const instances = checkInstances(given);
  const runs = instances.map((i) => i.run);
  const info = runs[0]!.instance;
  const starts = runs.map((r) => Date.parse(r.startedAt));
  const originMs = Math.min(...starts);
  const phases = mergePhases(runs);
  const expected = new Set(expectedOutcomes(info.kind === 'rate-breakpoint'));
  let measured = 0;
  let failed = 0;
  for (const p of phases) {
    for (const o of OUTCOMES) {
      measured += p.answers[o];
      if (!expected.has(o)) failed += p.answers[o];
    }
  }
  const timelines = runs.flatMap((r, i) => (r.arrivalTimeline ? [{ originMs: starts[i]!, value: r.arrivalTimeline }] : []));
  // A timeline only some instances kept would undercount the others' answers: then none.
  const arrivalTimeline = timelines.length === runs.length ? mergeTimelines(timelines, originMs) : undefined;
  const errorSamples = errorSamplesOf(runs);
  const captured = runs.flatMap((r) => r.captured ?? []);
  const run: NormalizedRun = {
    format: runs[0]!.format,
    version: 1,
    engine: runs[0]!.engine,
    scenario: runs[0]!.scenario,
    startedAt: new Date(originMs).toISOString(),
    durationMs: Math.max(...runs.map((r, i) => starts[i]! + r.durationMs)) - originMs,
    phases: phases.map((p) => p.result),
    thresholds: evaluateThresholds(info.thresholds, phases, { measured, failed }),
    timeSeries: mergeTimeSeries(runs.map((r, i) => ({ originMs: starts[i]!, value: r.timeSeries })), originMs),
    headerSamples: runs.flatMap((r) => r.headerSamples),
    ...(arrivalTimeline ? { arrivalTimeline } : {}),
    ...(captured.length ? { captured } : {}),
    ...(errorSamples.length ? { errorSamples } : {}),
    generator: generatorOf(instances),
    mergedFrom: instances.map((i) => ({ name: i.name, segment: i.run.instance.segment, engine: i.run.engine, startedAt: i.run.startedAt })),
  };
  for (const p of phases) for (const h of p.histograms.values()) h.destroy();
  return { run, kind: info.kind, ...(info.criteria ? { criteria: { ...info.criteria } } : {}), instances };
}
