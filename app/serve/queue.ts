// Which run starts when. One run at a time per implementation (two runs
// against one target would disturb each other's rate limits and users), and
// at most `maxConcurrent` runs at once over all implementations (each run is
// a Playwright process with its workers, and for the reference a server: on
// 2 cores, one at a time). Waiting runs start in the order they were asked
// for; a run's position is counted among its implementation's waiting runs
// (1: next to start for it). Positions live here only, in memory: the run
// service adds them to a waiting run's record when it is read.
export interface QueuedRun {
  runId: string;
  implementation: string;
  /** The token's name that asked for it, for the per-token bound on waiting runs. */
  requestedBy?: string;
}

export class RunQueue {
  private readonly waiting: QueuedRun[] = [];
  private readonly running = new Map<string, string>();

  constructor(readonly maxConcurrent = 1) {
    if (!Number.isInteger(maxConcurrent) || maxConcurrent < 1) throw new Error(`maxConcurrent must be a whole number of at least 1; got ${maxConcurrent}`);
  }

  enqueue(run: QueuedRun): void {
    this.waiting.push(run);
  }

  /** Takes a waiting run out; false when it was not waiting. */
  remove(runId: string): boolean {
    const at = this.waiting.findIndex((r) => r.runId === runId);
    if (at < 0) return false;
    this.waiting.splice(at, 1);
    return true;
  }

  /** The runs that may start now, marked running; the caller starts each and calls finished() when it ends. */
  startable(): QueuedRun[] {
    const started: QueuedRun[] = [];
    for (let i = 0; i < this.waiting.length && this.running.size < this.maxConcurrent; ) {
      const run = this.waiting[i]!;
      if ([...this.running.values()].includes(run.implementation)) {
        i++;
        continue;
      }
      this.waiting.splice(i, 1);
      this.running.set(run.runId, run.implementation);
      started.push(run);
    }
    return started;
  }

  finished(runId: string): void {
    this.running.delete(runId);
  }

  isRunning(runId: string): boolean {
    return this.running.has(runId);
  }

  /** Each waiting run's position among its implementation's waiting runs (1-based). */
  positions(): Map<string, number> {
    const counts = new Map<string, number>();
    const positions = new Map<string, number>();
    for (const run of this.waiting) {
      const position = (counts.get(run.implementation) ?? 0) + 1;
      counts.set(run.implementation, position);
      positions.set(run.runId, position);
    }
    return positions;
  }

  /** How many runs wait, over all or those one token asked for. */
  waitingCount(requestedBy?: string): number {
    if (requestedBy === undefined) return this.waiting.length;
    let count = 0;
    for (const run of this.waiting) if (run.requestedBy === requestedBy) count++;
    return count;
  }

  /** The runs waiting, in order. */
  waitingRuns(): QueuedRun[] {
    return [...this.waiting];
  }

  runningRuns(): string[] {
    return [...this.running.keys()];
  }
}
