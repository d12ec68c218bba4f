// The 429 staircase: the figures of the rate-limit probe, its charts per step
// and over time, and the table of its steps.
import type { RateLimitProbe, RateStep } from '../../../../src/results/load-model.ts';
import { formatInt, formatMs, formatNumber, formatShare } from '../../../format.ts';
import type { PageCheck } from '../../page-data.ts';
import type { HMarker, VMarker } from '../charts/frame.ts';
import { lineChart } from '../charts/line.ts';
import { h } from '../dom.ts';
import { rateOverTimeChart, statusShareChart } from './over-time.ts';
import { figures, probeHeading, table, type Cell } from './parts.ts';

const perSecond = (rps: number | undefined) => (rps !== undefined ? `${formatNumber(rps)} req/s` : undefined);

function rateLimitFigures(probe: RateLimitProbe): HTMLDListElement {
  const steps = probe.steps;
  const backoff = probe.backoffSec !== undefined ? ` (waited ${formatNumber(probe.backoffSec)} s)` : '';
  return figures([
    ['429 onset', perSecond(probe.onsetRps) ?? 'none up to the cap', 'fig-key'],
    ['estimated limit', perSecond(probe.estimatedLimitRps) ?? '—', 'fig-key'],
    probe.estimatedBurst !== undefined && ['estimated burst', `${formatInt(probe.estimatedBurst)} requests`],
    probe.estimateMethod && ['estimated from', probe.estimateMethod === 'plateau-steps' ? 'per-step counts' : 'admissions per second under 429s'],
    ['expected (profile)', perSecond(probe.expectedLimitRps) ?? 'not set'],
    ['rate cap', `${formatNumber(probe.capRps)} req/s`],
    ['steps', formatInt(steps.length)],
    ['requests', formatInt(steps.reduce((a, st) => a + st.sent, 0))],
    ['recovered after back-off', probe.recovered === undefined ? '—' : `${probe.recovered ? 'yes' : 'no'}${backoff}`, probe.recovered === false ? 'fig-bad' : ''],
    ['engine', probe.engine],
  ]);
}

/** The 429 onset and the cap (vertical), the estimated and the expected limit (horizontal). */
function limitMarkers(probe: RateLimitProbe): { vMarkers: VMarker[]; hMarkers: HMarker[] } {
  const vMarkers: VMarker[] = [];
  if (probe.onsetRps !== undefined) vMarkers.push({ x: probe.onsetRps, label: `429 onset ${formatNumber(probe.onsetRps)} req/s`, cls: 'm-onset' });
  vMarkers.push({ x: probe.capRps, label: `cap ${formatNumber(probe.capRps)} req/s`, cls: 'm-cap' });
  const hMarkers: HMarker[] = [];
  if (probe.estimatedLimitRps !== undefined) hMarkers.push({ y: probe.estimatedLimitRps, label: `estimated limit ≈ ${formatNumber(probe.estimatedLimitRps)} req/s`, cls: 'm-limit' });
  if (probe.expectedLimitRps !== undefined) hMarkers.push({ y: probe.expectedLimitRps, label: `profile: ${formatNumber(probe.expectedLimitRps)} req/s`, cls: 'm-expected' });
  return { vMarkers, hMarkers };
}

function headersSeen(probe: RateLimitProbe): HTMLDivElement | null {
  if (!probe.headers) return null;
  const rows: string[][] = [['Retry-After', probe.headers.retryAfter || 'not sent'], ...Object.entries(probe.headers.fields)];
  return rows.length ? h('div', { class: 'rl-headers' }, h('h5', null, 'Rate-limit headers seen (REVIEW)'), table(['header', 'value'], rows)) : null;
}

function stepCharts(probe: RateLimitProbe): SVGSVGElement[] {
  const steps = probe.steps;
  const shareOf = (n: number, st: RateStep) => (st.sent ? n / st.sent : 0);
  const titles = steps.map((st) => `${formatNumber(st.offeredRps)} req/s offered: ${formatNumber(st.acceptedRps)} accepted/s, 429 ${formatShare(st.share429)}`);
  const { vMarkers, hMarkers } = limitMarkers(probe);
  const withAccepted = steps.filter((st) => st.latencyAccepted);
  const with429 = steps.filter((st) => st.latency429);
  return [
    lineChart(
      'Offered vs accepted rate per step',
      [
        { name: 'offered', cls: 'c-offered', points: steps.map((st) => [st.offeredRps, st.offeredRps]), dashed: true },
        { name: 'accepted', cls: 'c-2xx', points: steps.map((st) => [st.offeredRps, st.acceptedRps]), dots: true, titles },
      ],
      { xLabel: 'offered rate (req/s)', yLabel: 'accepted (req/s)', xMin: 0, vMarkers, hMarkers },
    ),
    lineChart(
      '429 and 5xx share per step',
      [
        { name: '429', cls: 'c-429', points: steps.map((st) => [st.offeredRps, st.share429]), dots: true, titles },
        { name: '5xx', cls: 'c-5xx', points: steps.map((st) => [st.offeredRps, shareOf(st.serverErrors, st)]), dots: true },
        { name: 'transport', cls: 'c-other', points: steps.map((st) => [st.offeredRps, shareOf(st.transportErrors, st)]) },
      ],
      { xLabel: 'offered rate (req/s)', yLabel: 'share of answers', xMin: 0, yMax: 1, yFormat: (v) => `${Math.round(v * 100)}%`, vMarkers: vMarkers.filter((m) => m.cls === 'm-onset') },
    ),
    lineChart(
      'Latency per step: accepted vs 429 (a limiter sheds, it does not queue)',
      [
        { name: 'accepted p50', cls: 'c-p50', points: withAccepted.map((st) => [st.offeredRps, st.latencyAccepted!.p50Ms]), dashed: true },
        { name: 'accepted p95', cls: 'c-2xx', points: withAccepted.map((st) => [st.offeredRps, st.latencyAccepted!.p95Ms]), dots: true },
        { name: '429 p95', cls: 'c-429', points: with429.map((st) => [st.offeredRps, st.latency429!.p95Ms]), dots: true },
      ],
      { xLabel: 'offered rate (req/s)', yLabel: 'ms', xMin: 0 },
    ),
  ];
}

const STEP_COLUMNS = ['offered req/s', 's', 'sent', 'dropped', 'accepted', 'accepted/s', '429', '429 share', '5xx', 'transport', 'other', 'p95 accepted', 'p95 429'];

function stepRow(st: RateStep): Cell[] {
  return [
    st.offeredRps,
    st.durationSec,
    st.sent,
    st.dropped,
    st.accepted,
    st.acceptedRps,
    st.rateLimited,
    formatShare(st.share429),
    st.serverErrors,
    st.transportErrors,
    st.otherStatus,
    st.latencyAccepted ? formatMs(st.latencyAccepted.p95Ms) : '—',
    st.latency429 ? formatMs(st.latency429.p95Ms) : '—',
  ];
}

export function rateLimitProbe(probe: RateLimitProbe, checksById: ReadonlyMap<string, PageCheck>): HTMLElement {
  const overTime = probe.timeSeries.length
    ? [rateOverTimeChart('Offered vs achieved rate over time', probe.timeSeries), statusShareChart('2xx / 429 / 5xx share over time', probe.timeSeries)]
    : [];
  return h(
    'article',
    { class: 'probe' },
    probeHeading(probe, 'Rate limit (429) staircase', checksById),
    rateLimitFigures(probe),
    probe.generatorNote ? h('p', { class: 'notice notice-warn' }, `Load generator: ${probe.generatorNote}`) : null,
    headersSeen(probe),
    h('div', { class: 'charts' }, stepCharts(probe), overTime),
    h('h5', null, 'Steps'),
    table(STEP_COLUMNS, probe.steps.map(stepRow)),
    probe.steps.length ? null : h('p', { class: 'muted' }, 'The probe recorded no steps.'),
  );
}
