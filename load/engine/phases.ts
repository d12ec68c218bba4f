// The plan of a run as the engine drives it: one phase per k6 scenario
// (arrival-rate executor), in order of start, each with its own recorder and
// its own in-flight count (the part of k6's maxVUs).
import { durationSec } from '../scenarios/duration.ts';
import type { ArrivalExecutor } from '../scenarios/types.ts';
import { PhaseRecorder } from './recorder.ts';
import { executorDurationSec, plannedArrivals } from './schedule.ts';

export interface Phase {
  name: string;
  executor: ArrivalExecutor;
  startSec: number;
  durationSec: number;
  maxVUs: number;
  recorder: PhaseRecorder;
  inFlight: number;
}

/** The phases of the executors, sorted by start; startTimes count from offsetSec (a replaced plan starts where the last phase ended). */
export function buildPhases(executors: Record<string, ArrivalExecutor>, offsetSec = 0): Phase[] {
  return Object.entries(executors)
    .map(([name, executor]) => {
      const startSec = offsetSec + durationSec(executor.startTime ?? '0s');
      const sec = executorDurationSec(executor);
      const unit = durationSec(executor.timeUnit ?? '1s');
      const planned = plannedArrivals(executor);
      // An infinite or undefined rate would be an endless stream of arrivals, not a plan.
      if (!Number.isFinite(planned) || planned < 0) throw new Error(`scenario ${name}: no finite number of arrivals (rate or stages not finite numbers ≥ 0)`);
      const offered = sec > 0 ? planned / sec : 0;
      return {
        name,
        executor,
        startSec,
        durationSec: sec,
        maxVUs: executor.maxVUs ?? executor.preAllocatedVUs,
        recorder: new PhaseRecorder(name, { ...(executor.tags ?? {}) }, executor.executor === 'constant-arrival-rate' ? executor.rate / unit : offered, startSec, sec),
        inFlight: 0,
      };
    })
    .sort((a, b) => a.startSec - b.startSec);
}
