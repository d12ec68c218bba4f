// Vertical bars with their value on top.
import { compactNumber } from '../../../format.ts';
import { s } from '../dom.ts';
import { chartFrame, yAxisLabel, yGrid, type ChartOptions, type Frame } from './frame.ts';
import { linearScale, type Scale } from './scales.ts';

export interface Bar {
  label: string;
  value: number;
  cls: string;
  /** The value as shown; compactNumber(value) when absent. */
  text?: string;
}

function drawBar(frame: Frame, bar: Bar, i: number, band: number, yScale: Scale): void {
  const x = frame.x0 + i * band + band * 0.18;
  const y = yScale(bar.value);
  const middle = (x + band * 0.32).toFixed(1);
  frame.svg.appendChild(
    s('rect', { x: x.toFixed(1), y: y.toFixed(1), width: (band * 0.64).toFixed(1), height: Math.max(0, frame.y0 - y).toFixed(1), class: `bar ${bar.cls}` }, s('title', null, `${bar.label}: ${bar.text || bar.value}`)),
  );
  frame.svg.appendChild(s('text', { x: middle, y: (y - 4).toFixed(1), class: 'bar-value', 'text-anchor': 'middle' }, bar.text || compactNumber(bar.value)));
  frame.svg.appendChild(s('text', { x: middle, y: frame.y0 + 16, class: 'tick', 'text-anchor': 'middle' }, bar.label));
}

export function barChart(title: string, bars: readonly Bar[], opts: ChartOptions = {}): SVGSVGElement {
  const frame = chartFrame(title, { ...opts, width: opts.width || 340 });
  const max = Math.max(...bars.map((b) => b.value), 1) * 1.15;
  const yScale = linearScale(0, max, frame.y0, frame.y1);
  const band = (frame.x1 - frame.x0) / Math.max(1, bars.length);
  const grid = s('g', { class: 'grid' });
  yGrid(grid, frame, yScale, opts.yFormat);
  grid.appendChild(s('line', { x1: frame.x0, x2: frame.x1, y1: frame.y0, y2: frame.y0, class: 'axis' }));
  grid.appendChild(yAxisLabel(frame, opts.yLabel));
  frame.svg.appendChild(grid);
  bars.forEach((bar, i) => drawBar(frame, bar, i, band, yScale));
  return frame.svg;
}
