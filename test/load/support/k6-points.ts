// k6's documented --out json format (NDJSON: {"type":"Metric",…} and
// {"type":"Point","metric":…,"data":{"time","value","tags"}}), written from
// the raw samples of one embedded-engine run, split by execution segment
// as k6 would have split the arrivals: what N k6 instances of the same plan
// would have written, to merge against the unsplit run.
import type { AnswerSample } from '../../../load/engine/options.ts';
import type { ArrivalSegment } from '../../../load/distributed/arrivals.ts';
import { ANSWERS, DROPPED, INSTANCE_START, LATENCY } from '../../../load/scenarios/metrics.ts';
import type { ArrivalExecutor } from '../../../load/scenarios/types.ts';

const METRIC_TYPES: Record<string, [string, string]> = {
  [ANSWERS]: ['counter', 'default'],
  [LATENCY]: ['trend', 'time'],
  [DROPPED]: ['counter', 'default'],
  [INSTANCE_START]: ['counter', 'default'],
  http_reqs: ['counter', 'default'],
  vus: ['gauge', 'default'],
};

/** k6's RFC 3339 time with microseconds; every third point with a +00:00 offset, as k6 writes a local zone. */
function k6Time(ms: number, n: number): string {
  const whole = Math.floor(ms);
  const iso = new Date(whole).toISOString();
  const micros = String(Math.floor((ms - whole) * 1000)).padStart(3, '0');
  return iso.replace('Z', `${micros}${n % 3 === 0 ? '+00:00' : 'Z'}`);
}

/** The samples of each phase in arrival order (due time), each given to the segment that owns its index. */
export function splitBySegment(samples: AnswerSample[], segments: ArrivalSegment[]): AnswerSample[][] {
  const out = segments.map(() => [] as AnswerSample[]);
  const byPhase = new Map<string, AnswerSample[]>();
  for (const s of samples) byPhase.set(s.phase, [...(byPhase.get(s.phase) ?? []), s]);
  for (const phase of byPhase.values()) {
    phase.sort((a, b) => a.startMs - b.startMs);
    phase.forEach((s, j) => out[segments.findIndex((seg) => seg.owns(j))]!.push(s));
  }
  return out;
}

export interface PointsOptions {
  /** The run's start (ms since the epoch): samples' times count from it; the instance-start marker is put there. */
  startedAtMs: number;
  plan: Record<string, ArrivalExecutor>;
  /** k6-operator's --tag instance_id=N on every point. */
  instanceId?: number;
  /** Leave out the ptas_instance_start marker (a k6 script of before it). */
  noMarker?: boolean;
}

/** One instance's --out json file: its samples as k6 points, with k6's own metrics and a log line among them. */
export function k6PointsFile(samples: AnswerSample[], options: PointsOptions): string {
  const lines: string[] = ['time="2026-11-26T05:00:00Z" level=info msg="a k6 log line, as kubectl logs shows it"'];
  const seen = new Set<string>();
  let n = 0;
  const point = (metric: string, ms: number, value: number, tags: Record<string, string>) => {
    if (!seen.has(metric)) {
      seen.add(metric);
      const [type, contains] = METRIC_TYPES[metric]!;
      lines.push(JSON.stringify({ type: 'Metric', data: { name: metric, type, contains, thresholds: [], submetrics: null }, metric }));
    }
    const withId = options.instanceId === undefined ? tags : { ...tags, instance_id: String(options.instanceId) };
    lines.push(JSON.stringify({ metric, type: 'Point', data: { time: k6Time(options.startedAtMs + ms, n++), value, tags: withId } }));
  };
  point('vus', -5, 1, {});
  if (!options.noMarker) point(INSTANCE_START, 0, 1, { group: '::setup', scenario: 'setup' });
  for (const s of [...samples].sort((a, b) => a.endMs - b.endMs)) {
    const scenarioTags = { ...(options.plan[s.phase]?.tags ?? {}), scenario: s.phase };
    const status: Record<string, string> = s.status === 0 ? { status: '0', error_code: s.errorCode ?? '1211' } : { status: String(s.status) };
    point('http_reqs', s.endMs, 1, { ...scenarioTags, name: 'token', method: 'POST', status: String(s.status) });
    point(ANSWERS, s.endMs, 1, { ...scenarioTags, outcome: s.outcome, ...status });
    point(LATENCY, s.endMs, s.latencyUs / 1000, { ...scenarioTags, outcome: s.outcome });
  }
  return lines.join('\n') + '\n';
}
