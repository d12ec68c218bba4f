// Do the instances of a run cover the whole plan exactly once? Their
// segments, laid end to end, must run from 0 to 1 without overlapping
// (an arrival counted twice) or leaving a gap (arrivals nobody sent).
import { compare, formatFraction, formatSegment, type ExecutionSegment, type Fraction } from './segment.ts';

export interface NamedSegment {
  /** The instance, as the user knows it (its file). */
  name: string;
  segment: ExecutionSegment;
}

/** What is wrong with the cover, one sentence each naming the instances; empty when it is exact. */
export function coverageProblems(instances: NamedSegment[]): string[] {
  const sorted = [...instances].sort((a, b) => compare(a.segment.from, b.segment.from) || compare(a.segment.to, b.segment.to));
  const problems: string[] = [];
  const describe = (i: NamedSegment) => `${i.name} (${formatSegment(i.segment)})`;
  const gap = (from: Fraction, to: Fraction) => problems.push(`segment ${formatFraction(from)}:${formatFraction(to)} is missing: no instance ran it`);
  let reach: Fraction = { n: 0, d: 1 };
  let reachedBy: NamedSegment | undefined;
  for (const instance of sorted) {
    const order = compare(instance.segment.from, reach);
    if (order > 0) gap(reach, instance.segment.from);
    else if (order < 0 && reachedBy) problems.push(`${describe(reachedBy)} and ${describe(instance)} overlap: their arrivals would be counted twice`);
    if (compare(instance.segment.to, reach) > 0) {
      reach = instance.segment.to;
      reachedBy = instance;
    }
  }
  if (compare(reach, { n: 1, d: 1 }) < 0) gap(reach, { n: 1, d: 1 });
  return problems;
}
