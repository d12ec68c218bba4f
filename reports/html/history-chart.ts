// Small inline SVG line charts for the trend page: one load figure over the
// nights. Drawn when the page is written (the page has no script); colours
// come from CSS classes, so the page's Content-Security-Policy needs no inline
// style. A night that did not measure the figure leaves a gap in the line.
import type { FigureSeries } from '../history.ts';
import { formatFigure } from '../figure-format.ts';
import { escapeXml as esc } from '../escape.ts';

const SIZE = { width: 320, height: 140, left: 66, right: 12, top: 40, bottom: 24 };

const round = (n: number): string => String(Math.round(n * 10) / 10);

/** The value range drawn: the data's, widened when flat so a constant line sits mid-chart. */
function valueRange(values: number[]): [number, number] {
  const min = Math.min(...values);
  const max = Math.max(...values);
  if (max > min) return [min, max];
  const pad = Math.abs(min) * 0.1 || 1;
  return [min - pad, max + pad];
}

/** The line as path segments: a gap (undefined) ends one segment, the next value starts another. */
function linePath(points: Array<[number, number] | undefined>): string {
  let d = '';
  let drawing = false;
  for (const p of points) {
    if (!p) {
      drawing = false;
      continue;
    }
    d += `${drawing ? 'L' : 'M'}${round(p[0])} ${round(p[1])} `;
    drawing = true;
  }
  return d.trim();
}

export function trendChart(series: FigureSeries, nightLabels: readonly string[]): string {
  const { width: w, height: h, left, right, top, bottom } = SIZE;
  const defined = series.values.filter((v): v is number => v !== undefined);
  const title = `${series.figure}: ${series.subject}`;
  const head = `<svg class="chart trend" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="img" aria-label="${esc(title)}"><title>${esc(title)}</title>`;
  const heading = `<text x="8" y="14" class="chart-title">${esc(series.figure)}</text><text x="8" y="26" class="trend-subject">${esc(series.subject)}</text>`;
  if (!defined.length) return `${head}${heading}<text x="${left}" y="${h / 2 + 10}" class="trend-empty">not measured</text></svg>`;
  const [lo, hi] = valueRange(defined);
  const count = series.values.length;
  const x = (n: number) => (count === 1 ? (left + w - right) / 2 : left + (n * (w - left - right)) / (count - 1));
  const y = (v: number) => h - bottom - ((v - lo) / (hi - lo)) * (h - top - bottom);
  const points = series.values.map((v, n) => (v === undefined ? undefined : ([x(n), y(v)] as [number, number])));
  // The measured extremes label the axis (a flat line: its one value), never the padding around them.
  const [min, max] = [Math.min(...defined), Math.max(...defined)];
  const tick = (v: number) => `<text x="${left - 4}" y="${round(y(v) + 4)}" class="trend-tick" text-anchor="end">${esc(formatFigure(v, series.unit))}</text>`;
  const axis =
    `<line class="trend-axis" x1="${left}" y1="${h - bottom}" x2="${w - right}" y2="${h - bottom}"/>` +
    tick(max) +
    (max > min ? tick(min) : '') +
    `<text x="${left}" y="${h - 8}" class="trend-tick">${esc(nightLabels[0] ?? '')}</text>` +
    (count > 1 ? `<text x="${w - right}" y="${h - 8}" class="trend-tick" text-anchor="end">${esc(nightLabels[count - 1] ?? '')}</text>` : '');
  const dots = points
    .map((p, n) =>
      p ? `<circle class="trend-point" cx="${round(p[0])}" cy="${round(p[1])}" r="3"><title>${esc(`${nightLabels[n] ?? ''}: ${formatFigure(series.values[n], series.unit)}`)}</title></circle>` : '',
    )
    .join('');
  return `${head}${heading}${axis}<path class="trend-line" d="${linePath(points)}"/>${dots}</svg>`;
}
