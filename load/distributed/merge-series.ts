// The instances' time-based records on one clock: each counts from its own
// startedAt, so each is shifted by how much later than the first instance
// it started, then added slot by slot. The instances of one run are started
// together (a start barrier, k6's --paused and resume), so the shifts are
// small; on separate machines they are as good as the machines' clocks.
import type { ArrivalTimeline, TimeBucket } from '../result/normalized.ts';

interface Timed<T> {
  /** ms since the epoch at which the record's slot 0 starts. */
  originMs: number;
  value: T;
}

/** Completion timelines of one resolution added slot by slot on the earliest origin. */
export function mergeTimelines(timelines: Array<Timed<ArrivalTimeline>>, originMs: number): ArrivalTimeline | undefined {
  if (timelines.length === 0) return undefined;
  const resolutionMs = timelines[0]!.value.resolutionMs;
  if (timelines.some((t) => t.value.resolutionMs !== resolutionMs)) return undefined;
  const out: ArrivalTimeline = { resolutionMs, admitted: [], limited: [] };
  for (const { originMs: start, value } of timelines) {
    const shift = Math.round((start - originMs) / resolutionMs);
    for (let i = 0; i < value.admitted.length; i++) {
      const slot = i + shift;
      while (out.admitted.length <= slot) {
        out.admitted.push(0);
        out.limited.push(0);
      }
      out.admitted[slot]! += value.admitted[i]!;
      out.limited[slot]! += value.limited[i] ?? 0;
    }
  }
  return out;
}

/**
 * Per-second buckets added second by second on the earliest origin. A
 * second's p95 cannot be had from the instances' p95s (no per-second
 * histograms are kept), so the merged buckets carry counts only.
 */
export function mergeTimeSeries(series: Array<Timed<TimeBucket[]>>, originMs: number): TimeBucket[] {
  const buckets = new Map<number, TimeBucket>();
  for (const { originMs: start, value } of series) {
    const shift = Math.round((start - originMs) / 1000);
    for (const b of value) {
      const tSec = b.tSec + shift;
      const into = buckets.get(tSec) ?? { tSec, offered: 0, sent: 0, status2xx: 0, status429: 0, status5xx: 0, other: 0 };
      into.offered += b.offered;
      into.sent += b.sent;
      into.status2xx += b.status2xx;
      into.status429 += b.status429;
      into.status5xx += b.status5xx;
      into.other += b.other;
      buckets.set(tSec, into);
    }
  }
  return [...buckets.values()].sort((a, b) => a.tSec - b.tSec);
}
