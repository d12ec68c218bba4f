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

/**
 * The histogram in HdrHistogram's standard compressed interchange encoding
 * (base64 of the deflated V2 encoding), which every HdrHistogram
 * implementation reads: an instance result carries its latency this way, so
 * instances add up to exact percentiles instead of averaged ones.
 */
export function encodeHistogram(histogram: Histogram): string {
  return hdr.encodeIntoCompressedBase64(histogram);
}

/** A histogram from its compressed interchange encoding, in our layout (so any two add). */
export function decodeHistogram(encoded: string): Histogram {
  const decoded = hdr.decodeFromCompressedBase64(encoded, 32);
  const histogram = newHistogram();
  histogram.add(decoded);
  decoded.destroy();
  return histogram;
}
