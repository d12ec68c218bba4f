// The 413 bisection: the figures of the body-size probe, the size of each
// step coloured by its outcome, and the table of its steps.
import type { BodySizeProbe, SizeOutcome, SizeProbeStep } from '../../../../src/results/load-model.ts';
import { compactBytes, formatBytes, formatInt, formatMs } from '../../../format.ts';
import type { PageCheck } from '../../page-data.ts';
import type { HMarker } from '../charts/frame.ts';
import { lineChart } from '../charts/line.ts';
import { h, s } from '../dom.ts';
import { figures, probeHeading, table, type Cell } from './parts.ts';

const OUTCOME_CLASS: Record<SizeOutcome, string> = { 413: 'c-413', accepted: 'c-2xx', 'other-4xx': 'c-4xx', '5xx': 'c-5xx', reset: 'c-other', timeout: 'c-other' };

function stepNotes(step: SizeProbeStep): string {
  const notes: string[] = [];
  if (step.answeredBeforeBodyComplete) notes.push('answered before the body was complete');
  if (step.resetAfterResponse) notes.push('reset after the answer');
  if (step.errorCode) notes.push(step.errorCode);
  return notes.join('; ') || '—';
}

function sizeFigures(probe: BodySizeProbe): HTMLDListElement {
  const boundary =
    probe.largestAcceptedBytes !== undefined && probe.smallestRejectedBytes !== undefined
      ? `largest accepted ${formatInt(probe.largestAcceptedBytes)} B, smallest rejected ${formatInt(probe.smallestRejectedBytes)} B`
      : 'not bracketed';
  return figures([
    ['largest accepted', formatBytes(probe.largestAcceptedBytes), 'fig-key'],
    ['smallest rejected (413)', formatBytes(probe.smallestRejectedBytes), 'fig-key'],
    ['boundary', boundary],
    ['requests', `${formatInt(probe.requests)} of a budget of ${formatInt(probe.requestBudget)}`],
  ]);
}

/** The largest accepted and smallest rejected size as lines: one when they are (nearly) the same. */
function boundaryMarkers(probe: BodySizeProbe): HMarker[] {
  const { largestAcceptedBytes: accepted, smallestRejectedBytes: rejected } = probe;
  if (accepted !== undefined && rejected !== undefined && rejected - accepted <= Math.max(16, accepted * 0.01)) {
    // Found to (nearly) the byte: one line, or the two labels would sit on each other.
    return [{ y: rejected, label: `limit: ${formatInt(accepted)} B accepted, ${formatInt(rejected)} B → 413`, cls: 'm-onset' }];
  }
  const hMarkers: HMarker[] = [];
  if (accepted !== undefined) hMarkers.push({ y: accepted, label: `largest accepted ${compactBytes(accepted)}`, cls: 'm-limit' });
  if (rejected !== undefined) hMarkers.push({ y: rejected, label: `smallest 413 ${compactBytes(rejected)}`, cls: 'm-onset' });
  return hMarkers;
}

function stepTitle(st: SizeProbeStep, i: number): string {
  return `step ${i + 1}${st.purpose ? ` (${st.purpose})` : ''}: ${formatInt(st.sizeBytes)} B, ${st.framing} → ${st.outcome}${st.status ? ` ${st.status}` : ''} in ${formatMs(st.durationMs)}`;
}

function bisectionChart(probe: BodySizeProbe): SVGSVGElement {
  const steps = probe.steps;
  const sizes = steps.map((st) => st.sizeBytes).filter((x) => x > 0);
  const log = sizes.length > 0 && Math.max(...sizes) / Math.max(1, Math.min(...sizes)) > 64;
  return lineChart(
    '413 bisection: body size per step',
    [
      {
        name: 'probed size',
        cls: 'c-size',
        points: steps.map((st, i) => [i + 1, Math.max(1, st.sizeBytes)]),
        dots: true,
        dotClasses: steps.map((st) => OUTCOME_CLASS[st.outcome] || 'c-other'),
        titles: steps.map(stepTitle),
      },
    ],
    {
      xLabel: 'step',
      yLabel: log ? 'bytes (log scale)' : 'bytes',
      yLog: log,
      xMin: 1,
      yFormat: compactBytes,
      xFormat: (v) => (Number.isInteger(v) ? String(v) : ''),
      hMarkers: boundaryMarkers(probe),
    },
  );
}

function outcomeLegend(): HTMLDivElement {
  const entries = Object.entries(OUTCOME_CLASS).map(([outcome, cls]) => h('span', null, s('svg', { width: 10, height: 10, class: 'legend-dot' }, s('circle', { cx: 5, cy: 5, r: 4, class: cls })), ` ${outcome}`));
  return h('div', { class: 'outcome-legend' }, entries);
}

const STEP_COLUMNS = ['#', 'purpose', 'size (bytes)', 'sent (bytes)', 'framing', 'outcome', 'status', 'Connection', 'notes', 'time'];

function stepRow(st: SizeProbeStep, i: number): Cell[] {
  return [
    i + 1,
    st.purpose || '—',
    st.sizeBytes,
    st.sentBytes ?? '—',
    st.framing,
    h('span', { class: `outcome ${OUTCOME_CLASS[st.outcome] || ''}` }, st.outcome),
    st.status ?? '—',
    st.connection || '—',
    stepNotes(st),
    formatMs(st.durationMs),
  ];
}

export function bodySizeProbe(probe: BodySizeProbe, checksById: ReadonlyMap<string, PageCheck>): HTMLElement {
  return h(
    'article',
    { class: 'probe' },
    probeHeading(probe, 'Body size (413) bisection', checksById),
    sizeFigures(probe),
    h('div', { class: 'charts' }, bisectionChart(probe), outcomeLegend()),
    h('h5', null, 'Steps'),
    table(STEP_COLUMNS, probe.steps.map(stepRow)),
  );
}
