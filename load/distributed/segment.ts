// k6's execution segments (--execution-segment, --execution-segment-sequence),
// as rationals so that shares add up exactly: a segment "1/4:1/2" is the part
// of every scenario's work one instance runs; the sequence "0,1/4,1/2,3/4,1"
// is the cut all instances of one run share. k6-operator gives runner i of N
// the segment (i-1)/N:i/N of the sequence 0,1/N,…,1 (evenSplit). Pure: no
// Node or k6 imports.

export interface Fraction {
  n: number;
  d: number;
}

export interface ExecutionSegment {
  from: Fraction;
  to: Fraction;
}

const gcd = (a: number, b: number): number => (b === 0 ? Math.abs(a) : gcd(b, a % b));
export const lcm = (a: number, b: number): number => (a / gcd(a, b)) * b;

function reduce(n: number, d: number): Fraction {
  const g = gcd(n, d) || 1;
  return { n: n / g, d: d / g };
}

/** "1/4", "0.25" or "25%", as k6 accepts them. */
export function parseFraction(text: string): Fraction {
  const t = text.trim();
  let m = /^(\d+)\/(\d+)$/.exec(t);
  if (m && Number(m[2]) > 0) return reduce(Number(m[1]), Number(m[2]));
  m = /^(\d+)(?:\.(\d+))?(%?)$/.exec(t);
  if (m) {
    const decimals = m[2] ?? '';
    const scale = 10 ** decimals.length * (m[3] ? 100 : 1);
    return reduce(Number(m[1]) * 10 ** decimals.length + Number(decimals || 0), scale);
  }
  throw new Error(`not a fraction: "${text}" (examples: 1/4, 0.25, 25%)`);
}

export function formatFraction(f: Fraction): string {
  if (f.n === 0) return '0';
  if (f.n === f.d) return '1';
  return `${f.n}/${f.d}`;
}

export const compare = (a: Fraction, b: Fraction): number => a.n * b.d - b.n * a.d;
export const valueOf = (f: Fraction): number => f.n / f.d;

/** "from:to" (or "to", meaning 0:to), 0 ≤ from < to ≤ 1. */
export function parseSegment(text: string): ExecutionSegment {
  const parts = text.split(':');
  if (parts.length > 2) throw new Error(`not an execution segment: "${text}" (example: 1/4:1/2)`);
  const from = parts.length === 2 ? parseFraction(parts[0]!) : { n: 0, d: 1 };
  const to = parseFraction(parts[parts.length - 1]!);
  if (compare(from, to) >= 0 || compare(to, { n: 1, d: 1 }) > 0) throw new Error(`execution segment "${text}": needs 0 ≤ from < to ≤ 1`);
  return { from, to };
}

export function formatSegment(s: ExecutionSegment): string {
  return `${formatFraction(s.from)}:${formatFraction(s.to)}`;
}

/** "0,1/4,1/2,3/4,1": strictly increasing cut points from 0 to 1. */
export function parseSequence(text: string): Fraction[] {
  const points = text.split(',').map(parseFraction);
  const ok = points.length >= 2 && compare(points[0]!, { n: 0, d: 1 }) === 0 && compare(points[points.length - 1]!, { n: 1, d: 1 }) === 0;
  if (!ok || points.some((p, i) => i > 0 && compare(points[i - 1]!, p) >= 0)) {
    throw new Error(`execution segment sequence "${text}": needs increasing fractions from 0 to 1 (example: 0,1/4,1/2,3/4,1)`);
  }
  return points;
}

/** The segment's share of the whole, as a number (for rates and in-flight bounds). */
export function share(s: ExecutionSegment): number {
  return valueOf(s.to) - valueOf(s.from);
}

/** The segment is one cut of the sequence: its ends are consecutive points. */
export function inSequence(s: ExecutionSegment, sequence: Fraction[]): boolean {
  const i = sequence.findIndex((p) => compare(p, s.from) === 0);
  return i >= 0 && i + 1 < sequence.length && compare(sequence[i + 1]!, s.to) === 0;
}

/** N equal segments and their sequence, exactly as k6-operator hands them to runners 1…N. */
export function evenSplit(instances: number): { sequence: string; segments: string[] } {
  if (!Number.isInteger(instances) || instances < 1) throw new Error(`instances must be a whole number ≥ 1 (got ${instances})`);
  const points = Array.from({ length: instances + 1 }, (_, i) => reduce(i, instances));
  return {
    sequence: points.map(formatFraction).join(','),
    segments: points.slice(1).map((to, i) => formatSegment({ from: points[i]!, to })),
  };
}
