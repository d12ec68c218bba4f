// Which arrivals of a scenario one instance runs. The plan's arrivals are
// numbered in order (arrival j of a phase); the sequence's cut points on a
// common denominator L divide every run of L consecutive arrivals into
// slots, and a segment owns the slots between its ends. So each instance
// starts exactly its share of every L arrivals of every phase, the
// instances of one sequence together start every arrival once, and none
// twice — whatever the phase's rate, ramp or length. That is k6's promise
// for --execution-segment ("each instance takes its fraction of every
// step's arrival rate"); the order of slots inside a period is ours.
import { formatSegment, lcm, parseSegment, parseSequence, share, type ExecutionSegment, type Fraction } from './segment.ts';

export interface ArrivalSegment {
  /** "1/4:1/2", as given. */
  label: string;
  segment: ExecutionSegment;
  /** The segment's share of the whole: its part of every rate and in-flight bound. */
  share: number;
  /** Arrival j (0-based, per phase) is this instance's to start. */
  owns(j: number): boolean;
}

/** The segment, within its sequence (without one: cut points 0, from, to, 1 — give the sequence whenever instances differ in size). */
export function arrivalSegment(segmentText: string, sequenceText?: string): ArrivalSegment {
  const segment = parseSegment(segmentText);
  const points: Fraction[] = sequenceText ? parseSequence(sequenceText) : [{ n: 0, d: 1 }, segment.from, segment.to, { n: 1, d: 1 }];
  const period = [...points, segment.from, segment.to].reduce((l, p) => lcm(l, p.d), 1);
  const first = (segment.from.n * period) / segment.from.d;
  const end = (segment.to.n * period) / segment.to.d;
  return {
    label: formatSegment(segment),
    segment,
    share: share(segment),
    owns: (j) => {
      const slot = j % period;
      return slot >= first && slot < end;
    },
  };
}

/** The offsets of the arrivals a segment owns, from all of the phase's offsets in order. */
export function* ownedArrivals(offsets: Iterable<number>, segment: ArrivalSegment): Generator<number> {
  let j = 0;
  for (const offset of offsets) if (segment.owns(j++)) yield offset;
}
