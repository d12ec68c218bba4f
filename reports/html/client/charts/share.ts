// Stacked shares (0–100 %) over time.
import { formatInt, formatNumber, formatShare } from '../../../format.ts';
import { s } from '../dom.ts';
import { axes, chartFrame, crosshair, legend, markers, noData, type ChartOptions, type Frame, type LegendItem } from './frame.ts';
import { linearScale, type Scale } from './scales.ts';

/** One time bucket: its start and a count per key. */
export interface ShareBucket {
  t: number;
  parts: Record<string, number | undefined>;
}

export interface ShareKey extends LegendItem {
  key: string;
}

function countOf(bucket: ShareBucket, key: ShareKey): number {
  return bucket.parts[key.key] || 0;
}

/** One polygon per key, stacked from the bottom in the order of the keys. */
function stackedAreas(frame: Frame, buckets: readonly ShareBucket[], keys: readonly ShareKey[], totals: readonly number[], xScale: Scale, yScale: Scale): void {
  let lower = buckets.map(() => 0);
  for (const key of keys) {
    const upper = buckets.map((b, i) => lower[i]! + (totals[i] ? countOf(b, key) / totals[i]! : 0));
    if (upper.some((u, i) => u > lower[i]!)) {
      const top = buckets.map((b, i) => `${xScale(b.t).toFixed(1)},${yScale(upper[i]!).toFixed(1)}`);
      const bottom = buckets.map((b, i) => `${xScale(b.t).toFixed(1)},${yScale(lower[i]!).toFixed(1)}`).reverse();
      frame.svg.appendChild(s('polygon', { points: [...top, ...bottom].join(' '), class: `share ${key.cls}` }));
    }
    lower = upper;
  }
}

export function shareChart(title: string, buckets: readonly ShareBucket[], keys: readonly ShareKey[], opts: ChartOptions = {}): SVGSVGElement {
  const frame = chartFrame(title, opts);
  if (!buckets.length) return noData(frame);
  const first = buckets[0]!.t;
  const last = buckets[buckets.length - 1]!.t;
  const xScale = linearScale(first, last === first ? last + 1 : last, frame.x0, frame.x1);
  const yScale = linearScale(0, 1, frame.y0, frame.y1);
  axes(frame, xScale, yScale, { ...opts, yFormat: (v) => `${Math.round(v * 100)}%` });
  const totals = buckets.map((b) => keys.reduce((sum, k) => sum + countOf(b, k), 0));
  stackedAreas(frame, buckets, keys, totals, xScale, yScale);
  markers(frame, xScale, yScale, opts);
  legend(frame, keys);
  crosshair(frame, xScale, buckets.map((b) => b.t), (i) => {
    const b = buckets[i]!;
    const parts = keys.map((k) => `${k.name} ${formatShare(totals[i] ? countOf(b, k) / totals[i]! : 0)}`).join(' · ');
    return `t=${formatNumber(b.t, 0)} s: ${parts} of ${formatInt(totals[i])}`;
  });
  return frame.svg;
}
