// Inline SVG charts: line/step charts with markers, stacked share charts and
// bar charts. Colours come from CSS classes (c-…), so the page needs no inline
// style and its Content-Security-Policy can stay strict.

const CHART = { width: 600, height: 250, left: 64, right: 16, top: 44, bottom: 42 };

function niceStep(span, count) {
  const raw = span / Math.max(1, count);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const residual = raw / magnitude;
  const nice = residual > 5 ? 10 : residual > 2 ? 5 : residual > 1 ? 2 : 1;
  return nice * magnitude;
}

function linearScale(min, max, from, to) {
  const span = max - min || 1;
  const f = (v) => from + ((v - min) / span) * (to - from);
  f.ticks = (count = 5) => {
    const step = niceStep(max - min || 1, count);
    const ticks = [];
    for (let v = Math.ceil(min / step) * step; v <= max + step * 1e-9; v += step) ticks.push(Number(v.toPrecision(12)));
    return ticks;
  };
  return f;
}

function log2Scale(min, max, from, to) {
  const lo = Math.log2(Math.max(1, min));
  const hi = Math.log2(Math.max(2, max));
  const f = (v) => from + ((Math.log2(Math.max(1, v)) - lo) / (hi - lo || 1)) * (to - from);
  f.ticks = (count = 5) => {
    const step = Math.max(1, Math.ceil((hi - lo) / count));
    const ticks = [];
    for (let e = Math.ceil(lo); e <= Math.floor(hi); e += step) ticks.push(2 ** e);
    return ticks;
  };
  return f;
}

function compact(n) {
  const abs = Math.abs(n);
  if (abs >= 1e9) return `${+(n / 1e9).toFixed(1)}G`;
  if (abs >= 1e6) return `${+(n / 1e6).toFixed(1)}M`;
  if (abs >= 1e4) return `${+(n / 1e3).toFixed(1)}k`;
  return `${+n.toFixed(2)}`;
}

function compactBytes(n) {
  if (n >= 1024 * 1024) return `${+(n / 1024 / 1024).toFixed(1)} MiB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KiB`;
  return `${n} B`;
}

function chartFrame(title, opts) {
  const w = opts.width || CHART.width;
  const hgt = opts.height || CHART.height;
  const svg = s('svg', { class: 'chart', viewBox: `0 0 ${w} ${hgt}`, width: w, height: hgt, role: 'img', 'aria-label': title });
  svg.appendChild(s('title', null, title));
  svg.appendChild(s('text', { x: CHART.left, y: 16, class: 'chart-title' }, title));
  return { svg, w, hgt, x0: CHART.left, x1: w - CHART.right, y0: hgt - CHART.bottom, y1: CHART.top };
}

function axes(frame, xScale, yScale, opts) {
  const { svg, x0, x1, y0, y1 } = frame;
  const grid = s('g', { class: 'grid' });
  for (const t of yScale.ticks(4)) {
    const y = yScale(t);
    grid.appendChild(s('line', { x1: x0, x2: x1, y1: y, y2: y }));
    grid.appendChild(s('text', { x: x0 - 6, y: y + 4, class: 'tick', 'text-anchor': 'end' }, (opts.yFormat || compact)(t)));
  }
  for (const t of xScale.ticks(6)) {
    const x = xScale(t);
    grid.appendChild(s('line', { x1: x, x2: x, y1: y0, y2: y0 + 4, class: 'tickmark' }));
    grid.appendChild(s('text', { x, y: y0 + 16, class: 'tick', 'text-anchor': 'middle' }, (opts.xFormat || compact)(t)));
  }
  grid.appendChild(s('line', { x1: x0, x2: x1, y1: y0, y2: y0, class: 'axis' }));
  grid.appendChild(s('line', { x1: x0, x2: x0, y1: y0, y2: y1, class: 'axis' }));
  grid.appendChild(s('text', { x: (x0 + x1) / 2, y: y0 + 34, class: 'axis-label', 'text-anchor': 'middle' }, opts.xLabel || ''));
  grid.appendChild(s('text', { x: 14, y: (y0 + y1) / 2, class: 'axis-label', 'text-anchor': 'middle', transform: `rotate(-90 14 ${(y0 + y1) / 2})` }, opts.yLabel || ''));
  svg.appendChild(grid);
}

function legend(frame, items) {
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

/** Vertical and horizontal reference lines with labels (429 onset, estimated limit, size boundary…). */
function markers(frame, xScale, yScale, opts) {
  const g = s('g', { class: 'markers' });
  for (const m of opts.vMarkers || []) {
    const x = xScale(m.x);
    if (!(x >= frame.x0 - 1 && x <= frame.x1 + 1)) continue;
    g.appendChild(s('line', { x1: x, x2: x, y1: frame.y0, y2: frame.y1, class: `marker ${m.cls || ''}` }));
    g.appendChild(s('text', { x: Math.min(x + 4, frame.x1 - 4), y: frame.y1 + 12, class: `marker-label ${m.cls || ''}`, 'text-anchor': x + 4 > frame.x1 - 120 ? 'end' : 'start' }, m.label));
  }
  // Labels of lines close together go to alternate sides so they stay readable.
  const placed = [];
  for (const m of opts.hMarkers || []) {
    const y = yScale(m.y);
    if (!(y <= frame.y0 + 1 && y >= frame.y1 - 1)) continue;
    const crowded = placed.some((p) => Math.abs(p.y - y) < 14 && p.right);
    placed.push({ y, right: !crowded });
    g.appendChild(s('line', { x1: frame.x0, x2: frame.x1, y1: y, y2: y, class: `marker ${m.cls || ''}` }));
    g.appendChild(
      s('text', { x: crowded ? frame.x0 + 4 : frame.x1 - 4, y: crowded ? y + 13 : y - 4, class: `marker-label ${m.cls || ''}`, 'text-anchor': crowded ? 'start' : 'end' }, m.label),
    );
  }
  frame.svg.appendChild(g);
}

/** A readout that follows the pointer: the nearest x and what each series says there. */
function crosshair(frame, xScale, xs, describe) {
  if (!xs.length) return;
  const line = s('line', { class: 'crosshair', y1: frame.y0, y2: frame.y1, x1: -10, x2: -10 });
  const label = s('text', { class: 'readout', x: frame.x0 + 6, y: frame.y1 + 12 });
  const overlay = s('rect', { x: frame.x0, y: frame.y1, width: frame.x1 - frame.x0, height: frame.y0 - frame.y1, class: 'overlay' });
  const pixels = xs.map(xScale);
  overlay.addEventListener('mousemove', (event) => {
    const box = frame.svg.getBoundingClientRect();
    const px = ((event.clientX - box.left) / box.width) * frame.w;
    let best = 0;
    for (let i = 1; i < pixels.length; i++) if (Math.abs(pixels[i] - px) < Math.abs(pixels[best] - px)) best = i;
    line.setAttribute('x1', pixels[best]);
    line.setAttribute('x2', pixels[best]);
    label.textContent = describe(best);
    label.setAttribute('x', pixels[best] > (frame.x0 + frame.x1) / 2 ? frame.x0 + 6 : pixels[best] + 6);
  });
  overlay.addEventListener('mouseleave', () => {
    line.setAttribute('x1', -10);
    line.setAttribute('x2', -10);
    label.textContent = '';
  });
  frame.svg.append(line, label, overlay);
}

function pathOf(points, xScale, yScale, step) {
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

/**
 * Lines over a numeric x axis.
 * series: [{ name, cls, points: [[x, y]], dashed, dots, step, titles: [string] }]
 */
function lineChart(title, series, opts = {}) {
  const frame = chartFrame(title, opts);
  const all = series.flatMap((ser) => ser.points);
  const xsAll = all.map((p) => p[0]).concat((opts.vMarkers || []).map((m) => m.x));
  const ysAll = all.map((p) => p[1]).concat((opts.hMarkers || []).map((m) => m.y));
  const xMin = opts.xMin ?? Math.min(...xsAll, Infinity);
  const xMax = opts.xMax ?? Math.max(...xsAll, -Infinity);
  const yMin = opts.yMin ?? (opts.yLog ? Math.min(...ysAll) : 0);
  const yMax = opts.yMax ?? Math.max(...ysAll, 1) * (opts.yLog ? 1.5 : 1.08);
  if (!all.length) {
    frame.svg.appendChild(s('text', { x: frame.x0 + 10, y: (frame.y0 + frame.y1) / 2, class: 'muted-text' }, 'no data'));
    return frame.svg;
  }
  const xScale = linearScale(xMin, xMax === xMin ? xMin + 1 : xMax, frame.x0, frame.x1);
  const yScale = (opts.yLog ? log2Scale : linearScale)(yMin, yMax, frame.y0, frame.y1);
  axes(frame, xScale, yScale, opts);
  markers(frame, xScale, yScale, opts);
  for (const ser of series) {
    if (!ser.points.length) continue;
    frame.svg.appendChild(s('path', { d: pathOf(ser.points, xScale, yScale, ser.step), class: `series ${ser.cls}${ser.dashed ? ' dashed' : ''}` }));
    if (ser.dots) {
      const g = s('g', { class: `dots ${ser.cls}` });
      ser.points.forEach(([x, y], i) => {
        g.appendChild(s('circle', { cx: xScale(x).toFixed(1), cy: yScale(y).toFixed(1), r: 3.5, class: ser.dotClasses ? ser.dotClasses[i] : '' }, ser.titles ? s('title', null, ser.titles[i]) : null));
      });
      frame.svg.appendChild(g);
    }
  }
  legend(frame, series.filter((ser) => ser.name));
  if (opts.readout) crosshair(frame, xScale, opts.readout.xs, opts.readout.describe);
  return frame.svg;
}

/** Stacked shares (0–100 %) over time: buckets [{ t, parts: { key: count } }]. */
function shareChart(title, buckets, keys, opts = {}) {
  const frame = chartFrame(title, opts);
  if (!buckets.length) {
    frame.svg.appendChild(s('text', { x: frame.x0 + 10, y: (frame.y0 + frame.y1) / 2, class: 'muted-text' }, 'no data'));
    return frame.svg;
  }
  const last = buckets[buckets.length - 1].t;
  const xScale = linearScale(buckets[0].t, last === buckets[0].t ? last + 1 : last, frame.x0, frame.x1);
  const yScale = linearScale(0, 1, frame.y0, frame.y1);
  axes(frame, xScale, yScale, { ...opts, yFormat: (v) => `${Math.round(v * 100)}%` });
  const totals = buckets.map((b) => keys.reduce((sum, k) => sum + (b.parts[k.key] || 0), 0));
  let lower = buckets.map(() => 0);
  for (const key of keys) {
    const upper = buckets.map((b, i) => lower[i] + (totals[i] ? (b.parts[key.key] || 0) / totals[i] : 0));
    if (upper.some((u, i) => u > lower[i])) {
      const top = buckets.map((b, i) => `${xScale(b.t).toFixed(1)},${yScale(upper[i]).toFixed(1)}`);
      const bottom = buckets.map((b, i) => `${xScale(b.t).toFixed(1)},${yScale(lower[i]).toFixed(1)}`).reverse();
      frame.svg.appendChild(s('polygon', { points: [...top, ...bottom].join(' '), class: `share ${key.cls}` }));
    }
    lower = upper;
  }
  markers(frame, xScale, yScale, opts);
  legend(frame, keys);
  crosshair(frame, xScale, buckets.map((b) => b.t), (i) => {
    const b = buckets[i];
    const parts = keys.map((k) => `${k.name} ${fmtPct(totals[i] ? (b.parts[k.key] || 0) / totals[i] : 0)}`).join(' · ');
    return `t=${fmtNum(b.t, 0)} s: ${parts} of ${fmtInt(totals[i])}`;
  });
  return frame.svg;
}

/** Vertical bars with their value on top: [{ label, value, cls }]. */
function barChart(title, bars, opts = {}) {
  const frame = chartFrame(title, { ...opts, width: opts.width || 340 });
  const max = Math.max(...bars.map((b) => b.value), 1) * 1.15;
  const yScale = linearScale(0, max, frame.y0, frame.y1);
  const band = (frame.x1 - frame.x0) / Math.max(1, bars.length);
  const grid = s('g', { class: 'grid' });
  for (const t of yScale.ticks(4)) {
    grid.appendChild(s('line', { x1: frame.x0, x2: frame.x1, y1: yScale(t), y2: yScale(t) }));
    grid.appendChild(s('text', { x: frame.x0 - 6, y: yScale(t) + 4, class: 'tick', 'text-anchor': 'end' }, (opts.yFormat || compact)(t)));
  }
  grid.appendChild(s('line', { x1: frame.x0, x2: frame.x1, y1: frame.y0, y2: frame.y0, class: 'axis' }));
  grid.appendChild(s('text', { x: 14, y: (frame.y0 + frame.y1) / 2, class: 'axis-label', 'text-anchor': 'middle', transform: `rotate(-90 14 ${(frame.y0 + frame.y1) / 2})` }, opts.yLabel || ''));
  frame.svg.appendChild(grid);
  bars.forEach((bar, i) => {
    const x = frame.x0 + i * band + band * 0.18;
    const y = yScale(bar.value);
    frame.svg.appendChild(s('rect', { x: x.toFixed(1), y: y.toFixed(1), width: (band * 0.64).toFixed(1), height: Math.max(0, frame.y0 - y).toFixed(1), class: `bar ${bar.cls}` }, s('title', null, `${bar.label}: ${bar.text || bar.value}`)));
    frame.svg.appendChild(s('text', { x: (x + band * 0.32).toFixed(1), y: (y - 4).toFixed(1), class: 'bar-value', 'text-anchor': 'middle' }, bar.text || compact(bar.value)));
    frame.svg.appendChild(s('text', { x: (x + band * 0.32).toFixed(1), y: frame.y0 + 16, class: 'tick', 'text-anchor': 'middle' }, bar.label));
  });
  return frame.svg;
}
