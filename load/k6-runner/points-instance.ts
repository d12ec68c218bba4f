// One k6 instance's result, built from its --out json points. k6's
// end-of-test summary holds percentiles only, which cannot be added up; the
// points hold every sample, so here they become what the embedded engine
// records: per phase (tags phase, else scenario) answers by outcome, status
// and error code (ptas_answers), latency HDR histograms by outcome
// (ptas_latency), dropped arrivals (dropped_iterations); the per-second time
// series and the 10 ms arrival timeline. The instance's clock starts at
// its ptas_instance_start point (the end of setup(), when the scenarios
// start); without one, at its first measured request.
import { ANSWERS, DROPPED, INSTANCE_START, LATENCY, OUTCOMES, type Outcome } from '../scenarios/metrics.ts';
import type { InstanceInfo } from '../result/instance.ts';
import type { ArrivalTimeline, NormalizedRun, PhaseResult } from '../result/normalized.ts';
import { arrivalSegment } from '../distributed/arrivals.ts';
import type { InstanceRun } from '../distributed/compatible.ts';
import { encodeHistogram, newHistogram, recordMs } from '../engine/histogram.ts';
import { buildPhases } from '../engine/phases.ts';
import type { PhaseRecorder } from '../engine/recorder.ts';
import { TimeSeries } from '../engine/recorder.ts';
import { readPoints, type K6Point } from './points.ts';

const TIMELINE_MS = 10;
const METRICS = new Set([ANSWERS, LATENCY, DROPPED, INSTANCE_START]);

export interface PointsInstance {
  run: InstanceRun;
  /** k6-operator's --tag instance_id values seen in the points (the runner's index), to check files against runners. */
  instanceIds: string[];
}

interface Sample {
  phase: string;
  outcome: Outcome;
  point: K6Point;
}

function outcomeOf(tags: Record<string, string>): Outcome | undefined {
  return OUTCOMES.find((o) => o === tags.outcome);
}

/** The points of one instance, in memory: answers and latencies are counted against the clock's origin, known only at the end. */
async function collect(file: string) {
  const answers: Sample[] = [];
  const latencies: Sample[] = [];
  const dropped: Array<{ phase: string; value: number }> = [];
  const instanceIds = new Set<string>();
  let marker: number | undefined;
  for await (const point of readPoints(file, METRICS)) {
    if (point.tags.instance_id) instanceIds.add(point.tags.instance_id);
    if (point.metric === INSTANCE_START) {
      marker = Math.min(marker ?? Infinity, point.timeMs);
      continue;
    }
    const phase = point.tags.phase ?? point.tags.scenario;
    if (!phase) continue;
    if (point.metric === DROPPED) {
      dropped.push({ phase, value: point.value });
      continue;
    }
    const outcome = outcomeOf(point.tags);
    if (!outcome) continue;
    (point.metric === ANSWERS ? answers : latencies).push({ phase, outcome, point });
  }
  return { answers, latencies, dropped, instanceIds: [...instanceIds].sort(), marker };
}

function countInTimeline(timeline: ArrivalTimeline, outcome: Outcome, ms: number): void {
  if (outcome === '5xx' || outcome === 'transport') return;
  const slot = Math.max(0, Math.floor(ms / TIMELINE_MS));
  while (timeline.admitted.length <= slot) {
    timeline.admitted.push(0);
    timeline.limited.push(0);
  }
  (outcome === '429' ? timeline.limited : timeline.admitted)[slot]!++;
}

function encoded(recorder: PhaseRecorder): Partial<Record<Outcome, string>> {
  const out: Partial<Record<Outcome, string>> = {};
  for (const [outcome, h] of recorder.histograms) {
    out[outcome] = encodeHistogram(h);
    h.destroy();
  }
  return out;
}

function saturation(phases: PhaseResult[]): NormalizedRun['generator'] {
  const dropped = phases.reduce((s, p) => s + p.dropped, 0);
  return dropped > 0 ? { saturated: true, reason: `k6 dropped ${dropped} iterations: raise maxVUs or lower the rate` } : { saturated: false };
}

/** The instance result of the k6 process whose --out json file this is; info says what ptas asked it to run. */
export async function instanceFromPoints(file: string, scenario: string, info: InstanceInfo): Promise<PointsInstance> {
  const { answers, latencies, dropped, instanceIds, marker } = await collect(file);
  const firstSent = latencies.reduce((min, s) => Math.min(min, s.point.timeMs - s.point.value), Infinity);
  const origin = Math.floor(marker ?? (Number.isFinite(firstSent) ? firstSent : Date.now()));
  const phases = new Map(buildPhases(info.plan, 0, arrivalSegment(info.segment, info.sequence)).map((p) => [p.name, p.recorder]));
  const series = new TimeSeries();
  const timeline: ArrivalTimeline = { resolutionMs: TIMELINE_MS, admitted: [], limited: [] };
  let lastMs = 0;
  for (const { phase, outcome, point } of answers) {
    const r = phases.get(phase);
    if (!r) continue;
    r.answers[outcome] += point.value;
    r.sent += point.value;
    const status = point.tags.status;
    if (status !== undefined) r.statusCounts[status] = (r.statusCounts[status] ?? 0) + point.value;
    if (outcome === 'transport' && point.tags.error_code) r.errors[point.tags.error_code] = (r.errors[point.tags.error_code] ?? 0) + point.value;
    lastMs = Math.max(lastMs, point.timeMs - origin);
  }
  for (const { phase, outcome, point } of latencies) {
    const r = phases.get(phase);
    if (!r) continue;
    // A latency point is written as the answer comes, its value the request's duration (k6 timings.duration): it was sent that long before.
    countInTimeline(timeline, outcome, point.timeMs - point.value - origin);
    let h = r.histograms.get(outcome);
    if (!h) r.histograms.set(outcome, (h = newHistogram()));
    recordMs(h, point.value);
    series.arrival(point.timeMs - point.value - origin, true);
    series.answer(point.timeMs - origin, outcome, point.value);
  }
  for (const { phase, value } of dropped) {
    const r = phases.get(phase);
    if (r) r.dropped += value;
  }
  const ran = [...phases.values()].filter((r) => r.sent + r.dropped > 0);
  const results = ran.map((r) => ({ ...r.result(), histograms: encoded(r) }));
  const run: InstanceRun = {
    format: 'ptas-load-result',
    version: 1,
    engine: 'k6',
    scenario,
    startedAt: new Date(origin).toISOString(),
    durationMs: Math.round(lastMs),
    phases: results,
    // Judged on the merged run only: one instance's share says nothing about the whole.
    thresholds: [],
    timeSeries: series.finish(),
    headerSamples: [],
    arrivalTimeline: timeline,
    generator: saturation(results),
    instance: info,
  };
  return { run, instanceIds };
}
