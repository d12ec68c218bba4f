// Latency histograms (HDR, 3 significant digits) recording microseconds, so
// sub-millisecond loopback answers keep their resolution.
import * as hdr from 'hdr-histogram-js';
import type { LatencyStats } from '../result/normalized.ts';

export type Histogram = hdr.Histogram;

export function newHistogram(): Histogram {
  return hdr.build({ bitBucketSize: 32, numberOfSignificantValueDigits: 3, lowestDiscernibleValue: 1, highestTrackableValue: 60_000_000, autoResize: true });
}

export function recordMs(histogram: Histogram, ms: number): void {
  histogram.recordValue(Math.max(1, Math.round(ms * 1000)));
}

const toMs = (us: number) => Math.round(us) / 1000;

export function percentileMs(histogram: Histogram, percentile: number): number {
  return toMs(histogram.getValueAtPercentile(percentile));
}

export function latencyStats(histogram: Histogram | undefined): LatencyStats | undefined {
  if (!histogram || histogram.totalCount === 0) return undefined;
  return {
    count: histogram.totalCount,
    avgMs: toMs(histogram.mean),
    p50Ms: percentileMs(histogram, 50),
    p90Ms: percentileMs(histogram, 90),
    p95Ms: percentileMs(histogram, 95),
    p99Ms: percentileMs(histogram, 99),
    maxMs: toMs(histogram.maxValue),
  };
}

/** A new histogram holding the sum of the given ones. */
export function merged(histograms: Iterable<Histogram>): Histogram {
  const total = newHistogram();
  for (const h of histograms) total.add(h);
  return total;
}
