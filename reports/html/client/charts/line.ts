// Lines over a numeric x axis, with markers, dots and a pointer readout.
import { s } from '../dom.ts';
import { axes, chartFrame, crosshair, legend, markers, noData, type ChartOptions, type Frame } from './frame.ts';
import { linearScale, log2Scale, type Scale } from './scales.ts';

export type Point = [x: number, y: number];

export interface Series {
  /** Shown in the legend; a series without a name has no legend entry. */
  name?: string;
  cls: string;
  points: Point[];
  dashed?: boolean;
  /** A dot on each point, with its title and class when given. */
  dots?: boolean;
  titles?: string[];
  dotClasses?: string[];
  /** A step line (horizontal, then vertical) instead of straight segments. */
  step?: boolean;
}

export interface LineChartOptions extends ChartOptions {
  xMin?: number;
  xMax?: number;
  yMin?: number;
  yMax?: number;
  /** A log2 y axis (sizes spanning orders of magnitude). */
  yLog?: boolean;
  readout?: { xs: number[]; describe: (index: number) => string };
}

function pathOf(points: readonly Point[], xScale: Scale, yScale: Scale, step: boolean | undefined): string {
  let d = '';
  points.forEach(([x, y], i) => {
    const px = xScale(x).toFixed(1);
    const py = yScale(y).toFixed(1);
    if (i === 0) d += `M${px},${py}`;
    else if (step) d += `H${px}V${py}`;
    else d += `L${px},${py}`;
  });
  return d;
}

/** The scales that fit every point and every marker. */
function scalesOf(frame: Frame, series: readonly Series[], opts: LineChartOptions): { xScale: Scale; yScale: Scale } {
  const all = series.flatMap((ser) => ser.points);
  const xsAll = all.map((p) => p[0]).concat((opts.vMarkers || []).map((m) => m.x));
  const ysAll = all.map((p) => p[1]).concat((opts.hMarkers || []).map((m) => m.y));
  const xMin = opts.xMin ?? Math.min(...xsAll, Infinity);
  const xMax = opts.xMax ?? Math.max(...xsAll, -Infinity);
  const yMin = opts.yMin ?? (opts.yLog ? Math.min(...ysAll) : 0);
  const yMax = opts.yMax ?? Math.max(...ysAll, 1) * (opts.yLog ? 1.5 : 1.08);
  const xScale = linearScale(xMin, xMax === xMin ? xMin + 1 : xMax, frame.x0, frame.x1);
  const yScale = (opts.yLog ? log2Scale : linearScale)(yMin, yMax, frame.y0, frame.y1);
  return { xScale, yScale };
}

function drawSeries(frame: Frame, ser: Series, xScale: Scale, yScale: Scale): void {
  if (!ser.points.length) return;
  frame.svg.appendChild(s('path', { d: pathOf(ser.points, xScale, yScale, ser.step), class: `series ${ser.cls}${ser.dashed ? ' dashed' : ''}` }));
  if (!ser.dots) return;
  const g = s('g', { class: `dots ${ser.cls}` });
  ser.points.forEach(([x, y], i) => {
    const title = ser.titles ? s('title', null, ser.titles[i]) : null;
    g.appendChild(s('circle', { cx: xScale(x).toFixed(1), cy: yScale(y).toFixed(1), r: 3.5, class: ser.dotClasses ? ser.dotClasses[i] : '' }, title));
  });
  frame.svg.appendChild(g);
}

export function lineChart(title: string, series: readonly Series[], opts: LineChartOptions = {}): SVGSVGElement {
  const frame = chartFrame(title, opts);
  if (!series.some((ser) => ser.points.length)) return noData(frame);
  const { xScale, yScale } = scalesOf(frame, series, opts);
  axes(frame, xScale, yScale, opts);
  markers(frame, xScale, yScale, opts);
  for (const ser of series) drawSeries(frame, ser, xScale, yScale);
  legend(frame, series.flatMap((ser) => (ser.name ? [{ name: ser.name, cls: ser.cls }] : [])));
  if (opts.readout) crosshair(frame, xScale, opts.readout.xs, opts.readout.describe);
  return frame.svg;
}
