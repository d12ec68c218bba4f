// Charts over the seconds of a load run. Time series are merged into at most
// MAX_POINTS buckets for drawing; the tables keep every step.
import type { LatencySummary, TimeBucket } from '../../../../src/results/load-model.ts';
import { formatMs, formatNumber } from '../../../format.ts';
import { barChart } from '../charts/bar.ts';
import { lineChart } from '../charts/line.ts';
import { shareChart, type ShareKey } from '../charts/share.ts';

const MAX_POINTS = 480;

const STATUS_KEYS: ShareKey[] = [
  { key: 'status2xx', name: '2xx', cls: 'c-2xx' },
  { key: 'status429', name: '429', cls: 'c-429' },
  { key: 'status5xx', name: '5xx', cls: 'c-5xx' },
  { key: 'other', name: 'other / transport', cls: 'c-other' },
];

type CountKey = 'offered' | 'sent' | 'status2xx' | 'status429' | 'status5xx' | 'other';

/** Neighbouring seconds merged: counts added, over `width` seconds. */
type MergedBucket = Record<CountKey, number> & {
  tSec: number;
  width: number;
  p95Ms: number | undefined;
};

/** The bucket size: the smallest step between buckets (a staircase has pauses between its steps). */
function bucketWidth(series: readonly TimeBucket[]): number {
  let width = Infinity;
  for (let i = 1; i < series.length; i++) {
    const step = series[i]!.tSec - series[i - 1]!.tSec;
    if (step > 0 && step < width) width = step;
  }
  return Number.isFinite(width) ? width : 1;
}

function merge(slice: readonly TimeBucket[], width: number): MergedBucket {
  const sum = (k: CountKey) => slice.reduce((acc, b) => acc + (b[k] || 0), 0);
  const p95s = slice.map((b) => b.p95Ms).filter((v): v is number => v !== undefined);
  return {
    tSec: slice[0]!.tSec,
    width: width * slice.length,
    offered: sum('offered'),
    sent: sum('sent'),
    status2xx: sum('status2xx'),
    status429: sum('status429'),
    status5xx: sum('status5xx'),
    other: sum('other'),
    // The worst second of a merged bucket, so a spike is not averaged away.
    p95Ms: p95s.length ? Math.max(...p95s) : undefined,
  };
}

/** Merges neighbouring buckets so a long run draws with a bounded number of points. */
function downsample(series: readonly TimeBucket[]): MergedBucket[] {
  const width = bucketWidth(series);
  const group = Math.max(1, Math.ceil(series.length / MAX_POINTS));
  const merged: MergedBucket[] = [];
  for (let i = 0; i < series.length; i += group) merged.push(merge(series.slice(i, i + group), width));
  return merged;
}

export function rateOverTimeChart(title: string, series: readonly TimeBucket[]): SVGSVGElement {
  const b = downsample(series);
  const rate = (k: CountKey) => b.map((x): [number, number] => [x.tSec, x[k] / x.width]);
  const perSecond = (x: MergedBucket, k: CountKey) => formatNumber(x[k] / x.width);
  return lineChart(
    title,
    [
      { name: 'offered', cls: 'c-offered', points: rate('offered'), dashed: true },
      { name: 'achieved (sent)', cls: 'c-sent', points: rate('sent') },
      { name: '2xx', cls: 'c-2xx', points: rate('status2xx') },
      { name: '429', cls: 'c-429', points: rate('status429') },
    ],
    {
      xLabel: 'seconds since start',
      yLabel: 'requests / s',
      readout: {
        xs: b.map((x) => x.tSec),
        describe: (i) => `t=${formatNumber(b[i]!.tSec, 0)} s: offered ${perSecond(b[i]!, 'offered')}/s, sent ${perSecond(b[i]!, 'sent')}/s, 2xx ${perSecond(b[i]!, 'status2xx')}/s, 429 ${perSecond(b[i]!, 'status429')}/s`,
      },
    },
  );
}

export function statusShareChart(title: string, series: readonly TimeBucket[]): SVGSVGElement {
  const b = downsample(series).map((x) => ({ t: x.tSec, parts: x }));
  return shareChart(title, b, STATUS_KEYS, { xLabel: 'seconds since start', yLabel: 'share of answers' });
}

export function p95OverTimeChart(title: string, series: readonly TimeBucket[]): SVGSVGElement | null {
  const b = downsample(series).filter((x): x is MergedBucket & { p95Ms: number } => x.p95Ms !== undefined);
  if (!b.length) return null;
  return lineChart(title, [{ name: 'p95', cls: 'c-latency', points: b.map((x) => [x.tSec, x.p95Ms]) }], {
    xLabel: 'seconds since start',
    yLabel: 'ms',
    readout: { xs: b.map((x) => x.tSec), describe: (i) => `t=${formatNumber(b[i]!.tSec, 0)} s: p95 ${formatMs(b[i]!.p95Ms)}` },
  });
}

export function latencyBars(title: string, latency: LatencySummary): SVGSVGElement {
  const percentiles: Array<[string, number]> = [
    ['p50', latency.p50Ms],
    ['p90', latency.p90Ms],
    ['p95', latency.p95Ms],
    ['p99', latency.p99Ms],
    ['max', latency.maxMs],
  ];
  return barChart(
    title,
    percentiles.map(([label, value]) => ({ label, value, cls: label === 'max' ? 'c-max' : 'c-latency', text: formatMs(value) })),
    { yLabel: 'ms' },
  );
}
