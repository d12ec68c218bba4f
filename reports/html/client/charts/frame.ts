// The parts every chart shares: the frame with its title, axes and grid, the
// legend, labelled reference lines and the pointer readout. Colours come from
// CSS classes (c-…), so the page needs no inline style and its
// Content-Security-Policy can stay strict.
import { compactNumber } from '../../../format.ts';
import { s } from '../dom.ts';
import type { Scale } from './scales.ts';

const CHART = { width: 600, height: 250, left: 64, right: 16, top: 44, bottom: 42 };

/** A chart's drawing area: x0..x1 left to right, y0 (bottom) to y1 (top). */
export interface Frame {
  svg: SVGSVGElement;
  w: number;
  hgt: number;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

/** A labelled reference line (429 onset, estimated limit, size boundary…). */
export interface VMarker {
  x: number;
  label: string;
  cls?: string;
}

export interface HMarker {
  y: number;
  label: string;
  cls?: string;
}

export interface LegendItem {
  name: string;
  cls: string;
}

export interface ChartOptions {
  width?: number;
  height?: number;
  xLabel?: string;
  yLabel?: string;
  xFormat?: (value: number) => string;
  yFormat?: (value: number) => string;
  vMarkers?: VMarker[];
  hMarkers?: HMarker[];
}

export function chartFrame(title: string, opts: ChartOptions): Frame {
  const w = opts.width || CHART.width;
  const hgt = opts.height || CHART.height;
  const svg = s('svg', { class: 'chart', viewBox: `0 0 ${w} ${hgt}`, width: w, height: hgt, role: 'img', 'aria-label': title });
  svg.appendChild(s('title', null, title));
  svg.appendChild(s('text', { x: CHART.left, y: 16, class: 'chart-title' }, title));
  return { svg, w, hgt, x0: CHART.left, x1: w - CHART.right, y0: hgt - CHART.bottom, y1: CHART.top };
}

/** The "no data" note of a chart without points. */
export function noData(frame: Frame): SVGSVGElement {
  frame.svg.appendChild(s('text', { x: frame.x0 + 10, y: (frame.y0 + frame.y1) / 2, class: 'muted-text' }, 'no data'));
  return frame.svg;
}

/** Horizontal grid lines with their values at the left. */
export function yGrid(grid: SVGGElement, frame: Frame, yScale: Scale, yFormat: (value: number) => string = compactNumber): void {
  for (const t of yScale.ticks(4)) {
    const y = yScale(t);
    grid.appendChild(s('line', { x1: frame.x0, x2: frame.x1, y1: y, y2: y }));
    grid.appendChild(s('text', { x: frame.x0 - 6, y: y + 4, class: 'tick', 'text-anchor': 'end' }, yFormat(t)));
  }
}

/** The y axis's label, written upwards at the left edge. */
export function yAxisLabel(frame: Frame, label: string | undefined): SVGTextElement {
  const middle = (frame.y0 + frame.y1) / 2;
  return s('text', { x: 14, y: middle, class: 'axis-label', 'text-anchor': 'middle', transform: `rotate(-90 14 ${middle})` }, label || '');
}

export function axes(frame: Frame, xScale: Scale, yScale: Scale, opts: ChartOptions): void {
  const { svg, x0, x1, y0, y1 } = frame;
  const grid = s('g', { class: 'grid' });
  yGrid(grid, frame, yScale, opts.yFormat);
  for (const t of xScale.ticks(6)) {
    const x = xScale(t);
    grid.appendChild(s('line', { x1: x, x2: x, y1: y0, y2: y0 + 4, class: 'tickmark' }));
    grid.appendChild(s('text', { x, y: y0 + 16, class: 'tick', 'text-anchor': 'middle' }, (opts.xFormat || compactNumber)(t)));
  }
  grid.appendChild(s('line', { x1: x0, x2: x1, y1: y0, y2: y0, class: 'axis' }));
  grid.appendChild(s('line', { x1: x0, x2: x0, y1: y0, y2: y1, class: 'axis' }));
  grid.appendChild(s('text', { x: (x0 + x1) / 2, y: y0 + 34, class: 'axis-label', 'text-anchor': 'middle' }, opts.xLabel || ''));
  grid.appendChild(yAxisLabel(frame, opts.yLabel));
  svg.appendChild(grid);
}

export function legend(frame: Frame, items: readonly LegendItem[]): void {
  const g = s('g', { class: 'legend' });
  let x = frame.x1;
  for (const item of [...items].reverse()) {
    const label = s('text', { x, y: 34, 'text-anchor': 'end', class: 'legend-text' }, item.name);
    g.appendChild(label);
    x -= item.name.length * 6.2 + 6;
    g.appendChild(s('rect', { x: x - 10, y: 25, width: 10, height: 10, class: `swatch ${item.cls}` }));
    x -= 22;
  }
  frame.svg.appendChild(g);
}

function verticalMarkers(g: SVGGElement, frame: Frame, xScale: Scale, vMarkers: readonly VMarker[]): void {
  for (const m of vMarkers) {
    const x = xScale(m.x);
    if (!(x >= frame.x0 - 1 && x <= frame.x1 + 1)) continue;
    g.appendChild(s('line', { x1: x, x2: x, y1: frame.y0, y2: frame.y1, class: `marker ${m.cls || ''}` }));
    g.appendChild(s('text', { x: Math.min(x + 4, frame.x1 - 4), y: frame.y1 + 12, class: `marker-label ${m.cls || ''}`, 'text-anchor': x + 4 > frame.x1 - 120 ? 'end' : 'start' }, m.label));
  }
}

/** Labels of lines close together go to alternate sides so they stay readable. */
function horizontalMarkers(g: SVGGElement, frame: Frame, yScale: Scale, hMarkers: readonly HMarker[]): void {
  const placed: Array<{ y: number; right: boolean }> = [];
  for (const m of hMarkers) {
    const y = yScale(m.y);
    if (!(y <= frame.y0 + 1 && y >= frame.y1 - 1)) continue;
    const crowded = placed.some((p) => Math.abs(p.y - y) < 14 && p.right);
    placed.push({ y, right: !crowded });
    g.appendChild(s('line', { x1: frame.x0, x2: frame.x1, y1: y, y2: y, class: `marker ${m.cls || ''}` }));
    g.appendChild(
      s('text', { x: crowded ? frame.x0 + 4 : frame.x1 - 4, y: crowded ? y + 13 : y - 4, class: `marker-label ${m.cls || ''}`, 'text-anchor': crowded ? 'start' : 'end' }, m.label),
    );
  }
}

/** Vertical and horizontal reference lines with labels. */
export function markers(frame: Frame, xScale: Scale, yScale: Scale, opts: ChartOptions): void {
  const g = s('g', { class: 'markers' });
  verticalMarkers(g, frame, xScale, opts.vMarkers || []);
  horizontalMarkers(g, frame, yScale, opts.hMarkers || []);
  frame.svg.appendChild(g);
}

/** A readout that follows the pointer: the nearest x and what each series says there. */
export function crosshair(frame: Frame, xScale: Scale, xs: readonly number[], describe: (index: number) => string): void {
  if (!xs.length) return;
  const line = s('line', { class: 'crosshair', y1: frame.y0, y2: frame.y1, x1: -10, x2: -10 });
  const label = s('text', { class: 'readout', x: frame.x0 + 6, y: frame.y1 + 12 });
  const overlay = s('rect', { x: frame.x0, y: frame.y1, width: frame.x1 - frame.x0, height: frame.y0 - frame.y1, class: 'overlay' });
  const pixels = xs.map((x) => xScale(x));
  overlay.addEventListener('mousemove', (event) => {
    const box = frame.svg.getBoundingClientRect();
    const px = ((event.clientX - box.left) / box.width) * frame.w;
    let best = 0;
    for (let i = 1; i < pixels.length; i++) if (Math.abs(pixels[i] - px) < Math.abs(pixels[best] - px)) best = i;
    line.setAttribute('x1', String(pixels[best]));
    line.setAttribute('x2', String(pixels[best]));
    label.textContent = describe(best);
    label.setAttribute('x', String(pixels[best] > (frame.x0 + frame.x1) / 2 ? frame.x0 + 6 : pixels[best] + 6));
  });
  overlay.addEventListener('mouseleave', () => {
    line.setAttribute('x1', '-10');
    line.setAttribute('x2', '-10');
    label.textContent = '';
  });
  frame.svg.append(line, label, overlay);
}
