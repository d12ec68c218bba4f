// Chart scales: a value → a pixel, with ticks at round values.

export interface Scale {
  (value: number): number;
  ticks(count?: number): number[];
}

function niceStep(span: number, count: number): number {
  const raw = span / Math.max(1, count);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const residual = raw / magnitude;
  const nice = residual > 5 ? 10 : residual > 2 ? 5 : residual > 1 ? 2 : 1;
  return nice * magnitude;
}

export function linearScale(min: number, max: number, from: number, to: number): Scale {
  const span = max - min || 1;
  const ticks = (count = 5): number[] => {
    const step = niceStep(max - min || 1, count);
    const values: number[] = [];
    for (let v = Math.ceil(min / step) * step; v <= max + step * 1e-9; v += step) values.push(Number(v.toPrecision(12)));
    return values;
  };
  return Object.assign((v: number) => from + ((v - min) / span) * (to - from), { ticks });
}

export function log2Scale(min: number, max: number, from: number, to: number): Scale {
  const lo = Math.log2(Math.max(1, min));
  const hi = Math.log2(Math.max(2, max));
  const ticks = (count = 5): number[] => {
    const step = Math.max(1, Math.ceil((hi - lo) / count));
    const values: number[] = [];
    for (let e = Math.ceil(lo); e <= Math.floor(hi); e += step) values.push(2 ** e);
    return values;
  };
  return Object.assign((v: number) => from + ((Math.log2(Math.max(1, v)) - lo) / (hi - lo || 1)) * (to - from), { ticks });
}
