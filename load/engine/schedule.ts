// Arrival times of an open-model (arrival-rate) executor, in seconds from
// its start: evenly spaced for constant-arrival-rate; for
// ramping-arrival-rate, the n-th arrival falls where the integral of the
// piecewise-linear rate reaches n + ½. Arrivals never wait for answers.
import { durationSec } from '../scenarios/duration.ts';
import type { ArrivalExecutor } from '../scenarios/types.ts';

export function executorDurationSec(executor: ArrivalExecutor): number {
  if (executor.executor === 'constant-arrival-rate') return durationSec(executor.duration);
  return executor.stages.reduce((sum, s) => sum + durationSec(s.duration), 0);
}

export function startSecOf(executor: ArrivalExecutor): number {
  return durationSec(executor.startTime ?? '0s');
}

/** The planned mean arrival rate: a constant rate as given, a ramp's arrivals over its length. */
export function offeredRpsOf(executor: ArrivalExecutor): number {
  if (executor.executor === 'constant-arrival-rate') return executor.rate / durationSec(executor.timeUnit ?? '1s');
  const sec = executorDurationSec(executor);
  return sec > 0 ? plannedArrivals(executor) / sec : 0;
}

/** Planned arrivals of the whole executor (for offered-rate bookkeeping). */
export function plannedArrivals(executor: ArrivalExecutor): number {
  const unit = durationSec(executor.timeUnit ?? '1s');
  if (executor.executor === 'constant-arrival-rate') return Math.floor((executor.rate * durationSec(executor.duration)) / unit + 1e-9);
  let area = 0;
  let from = executor.startRate ?? 0;
  for (const stage of executor.stages) {
    area += ((from + stage.target) / 2) * durationSec(stage.duration);
    from = stage.target;
  }
  return Math.floor(area / unit + 0.5);
}

export function* arrivalOffsets(executor: ArrivalExecutor): Generator<number> {
  const unit = durationSec(executor.timeUnit ?? '1s');
  if (executor.executor === 'constant-arrival-rate') {
    const count = plannedArrivals(executor);
    const interval = unit / executor.rate;
    for (let i = 0; i < count; i++) yield i * interval;
    return;
  }
  let segmentStart = 0;
  let areaAtStart = 0;
  let rateFrom = (executor.startRate ?? 0) / unit;
  let n = 0;
  for (const stage of executor.stages) {
    const d = durationSec(stage.duration);
    const rateTo = stage.target / unit;
    const areaAtEnd = areaAtStart + ((rateFrom + rateTo) / 2) * d;
    // Solve areaAtStart + a·x + k·x² = n + ½ within this segment.
    const a = rateFrom;
    const k = d > 0 ? (rateTo - rateFrom) / (2 * d) : 0;
    while (n + 0.5 <= areaAtEnd + 1e-9) {
      const need = n + 0.5 - areaAtStart;
      let x: number;
      if (Math.abs(k) < 1e-12) x = a > 0 ? need / a : 0;
      else x = (-a + Math.sqrt(Math.max(0, a * a + 4 * k * need))) / (2 * k);
      yield segmentStart + Math.min(Math.max(0, x), d);
      n++;
    }
    segmentStart += d;
    areaAtStart = areaAtEnd;
    rateFrom = rateTo;
  }
}
