// The engine's side of the live progress line: every interval a snapshot of
// the current phase's offered rate, the answers completed since the last
// snapshot, and the shares and p95 of the last complete second. progress.ts
// prints the snapshots.
import type { ProgressSnapshot } from './options.ts';
import type { TimeSeries } from './recorder.ts';
import type { Scheduler } from './scheduler.ts';

/** Calls onProgress every intervalMs until the returned timer is cleared; now: ms on the run clock. */
export function startProgressTicker(
  scheduler: Scheduler,
  series: TimeSeries,
  now: () => number,
  onProgress: (snapshot: ProgressSnapshot) => void,
  intervalMs: number,
): NodeJS.Timeout {
  let lastProgress = { ms: 0, answers: 0 };
  return setInterval(() => {
    const phases = scheduler.phases;
    const ms = now();
    const second = Math.floor(ms / 1000) - 1;
    const totals = phases.reduce((sum, p) => sum + p.recorder.sent - p.inFlight, 0);
    const window = series.peek(second);
    const b = window?.bucket;
    const answeredInBucket = b ? b.status2xx + b.status429 + b.status5xx + b.other : 0;
    const current = phases.find((p) => p.name === scheduler.currentPhase);
    onProgress({
      elapsedSec: ms / 1000,
      phase: scheduler.currentPhase,
      offeredRps: current?.recorder.offeredRps ?? 0,
      achievedRps: ((totals - lastProgress.answers) * 1000) / Math.max(1, ms - lastProgress.ms),
      share2xx: answeredInBucket ? b!.status2xx / answeredInBucket : 0,
      share429: answeredInBucket ? b!.status429 / answeredInBucket : 0,
      share5xx: answeredInBucket ? b!.status5xx / answeredInBucket : 0,
      p95Ms: window?.p95Ms,
      inFlight: scheduler.inFlight,
      dropped: phases.reduce((sum, p) => sum + p.recorder.dropped, 0),
    });
    lastProgress = { ms, answers: totals };
  }, intervalMs);
}
