// One phase (a staircase step, a profile's main phase) added up over the
// instances that ran a share of it: counts summed per outcome, status and
// error code; latency histograms added, so the percentiles are those of
// every sample of every instance, exact within the histogram's precision —
// not an average of the instances' percentiles.
import { OUTCOMES, type Outcome } from '../scenarios/metrics.ts';
import { emptyAnswers, type PhaseResult } from '../result/normalized.ts';
import { decodeHistogram, latencyStats, merged, newHistogram, type Histogram } from '../engine/histogram.ts';
import { offeredRpsOf } from '../engine/schedule.ts';
import type { ThresholdPhase } from '../engine/thresholds.ts';
import type { InstanceRun } from './compatible.ts';
import { LoadMergeRefused } from './refused.ts';

export interface MergedPhase extends ThresholdPhase {
  result: PhaseResult;
  histograms: Map<Outcome, Histogram>;
}

function addCounts(into: Record<string, number>, from: Record<string, number> | undefined): void {
  for (const [key, n] of Object.entries(from ?? {})) into[key] = (into[key] ?? 0) + n;
}

function stats(histograms: Map<Outcome, Histogram>, outcomes: readonly Outcome[]) {
  const picked = outcomes.map((o) => histograms.get(o)).filter((h): h is Histogram => Boolean(h));
  if (picked.length === 0) return undefined;
  const sum = merged(picked);
  const result = latencyStats(sum);
  sum.destroy();
  return result;
}

function mergePhase(name: string, parts: PhaseResult[], plan: InstanceRun['instance']['plan']): MergedPhase {
  const first = parts[0]!;
  const answers = emptyAnswers();
  const statusCounts: Record<string, number> = {};
  const errors: Record<string, number> = {};
  const setupFailed: Record<string, number> = {};
  const histograms = new Map<Outcome, Histogram>();
  for (const part of parts) {
    for (const o of OUTCOMES) answers[o] += part.answers[o];
    addCounts(statusCounts, part.statusCounts);
    addCounts(errors, part.errors);
    addCounts(setupFailed, part.setupFailed);
    for (const [outcome, encoded] of Object.entries(part.histograms ?? {}) as Array<[Outcome, string]>) {
      let h = histograms.get(outcome);
      if (!h) histograms.set(outcome, (h = newHistogram()));
      let decoded: Histogram;
      try {
        decoded = decodeHistogram(encoded);
      } catch (error) {
        throw new LoadMergeRefused(`${name}: a latency histogram (${outcome}) is not in HdrHistogram's compressed encoding: ${(error as Error).message}`);
      }
      h.add(decoded);
      decoded.destroy();
    }
  }
  const sum = (pick: (p: PhaseResult) => number) => parts.reduce((s, p) => s + pick(p), 0);
  const late = sum((p) => p.late ?? 0);
  const executor = plan[name];
  const result: PhaseResult = {
    name,
    tags: first.tags,
    // The plan's rate, not the sum of the shares: 3 × 33.33… is 100.
    offeredRps: executor ? offeredRpsOf(executor) : sum((p) => p.offeredRps),
    startSec: first.startSec,
    durationSec: first.durationSec,
    sent: sum((p) => p.sent),
    dropped: sum((p) => p.dropped),
    ...(late ? { late } : {}),
    answers,
    statusCounts,
    latency: { all: stats(histograms, OUTCOMES), '2xx': stats(histograms, ['2xx']), '429': stats(histograms, ['429']) },
    // The instances ran side by side: their rates add.
    achievedRps: sum((p) => p.achievedRps),
    ...(Object.keys(errors).length ? { errors } : {}),
    ...(Object.keys(setupFailed).length ? { setupFailed } : {}),
  };
  return { name, answers, sent: result.sent, dropped: result.dropped, histograms, result };
}

/** The phases of all instances, matched by name, in the order of the plan (start, then name). */
export function mergePhases(instances: InstanceRun[]): MergedPhase[] {
  const byName = new Map<string, PhaseResult[]>();
  for (const run of instances) for (const p of run.phases) byName.set(p.name, [...(byName.get(p.name) ?? []), p]);
  const plan = instances[0]!.instance.plan;
  return [...byName]
    .sort(([a, pa], [b, pb]) => pa[0]!.startSec - pb[0]!.startSec || a.localeCompare(b))
    .map(([name, parts]) => mergePhase(name, parts, plan));
}
