// The plan of a run as the engine drives it: one phase per k6 scenario
// (arrival-rate executor), in order of start, each with its own recorder and
// its own in-flight count (the part of k6's maxVUs). An instance of a
// distributed run (an execution segment) drives its share of each.
import { ownedArrivals, type ArrivalSegment } from '../distributed/arrivals.ts';
import type { ArrivalExecutor } from '../scenarios/types.ts';
import { PhaseRecorder } from './recorder.ts';
import { arrivalOffsets, executorDurationSec, offeredRpsOf, plannedArrivals, startSecOf } from './schedule.ts';

export interface Phase {
  name: string;
  executor: ArrivalExecutor;
  startSec: number;
  durationSec: number;
  maxVUs: number;
  recorder: PhaseRecorder;
  inFlight: number;
  /** The offsets (seconds from the phase's start) of the arrivals this run starts. */
  arrivals(): Iterable<number>;
}

/**
 * The phases of the executors, sorted by start; startTimes count from
 * offsetSec (a replaced plan starts where the last phase ended). With a
 * segment, each phase starts only the segment's arrivals, offers its share
 * of the rate and keeps its share of maxVUs (at least one), as k6 scales a
 * scenario on an instance.
 */
export function buildPhases(executors: Record<string, ArrivalExecutor>, offsetSec = 0, segment?: ArrivalSegment): Phase[] {
  const part = segment?.share ?? 1;
  return Object.entries(executors)
    .map(([name, executor]) => {
      const startSec = offsetSec + startSecOf(executor);
      const sec = executorDurationSec(executor);
      const planned = plannedArrivals(executor);
      // An infinite or undefined rate would be an endless stream of arrivals, not a plan.
      if (!Number.isFinite(planned) || planned < 0) throw new Error(`scenario ${name}: no finite number of arrivals (rate or stages not finite numbers ≥ 0)`);
      const maxVUs = executor.maxVUs ?? executor.preAllocatedVUs;
      return {
        name,
        executor,
        startSec,
        durationSec: sec,
        maxVUs: segment ? Math.max(1, Math.ceil(maxVUs * part)) : maxVUs,
        recorder: new PhaseRecorder(name, { ...(executor.tags ?? {}) }, offeredRpsOf(executor) * part, startSec, sec),
        inFlight: 0,
        arrivals: () => (segment ? ownedArrivals(arrivalOffsets(executor), segment) : arrivalOffsets(executor)),
      };
    })
    .sort((a, b) => a.startSec - b.startSec);
}
