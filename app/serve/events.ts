// Each run's events (contract.ts RunEvent), in order: written to the run's
// events.jsonl as they happen and held in memory while the run is live, so a
// subscriber gets every past event and then each new one as it comes, up to
// and including `end`. Events are numbered from 1 (the server-sent events'
// ids), so a client that reconnects continues after the last one it saw.
import type { RunEvent } from './contract.ts';
import type { RunStore } from './store/runs.ts';

export interface NumberedRunEvent {
  /** 1 for the run's first event. */
  seq: number;
  event: RunEvent;
}

interface LiveLog {
  events: RunEvent[];
  wake: Set<() => void>;
}

export class RunEvents {
  private readonly live = new Map<string, LiveLog>();

  constructor(private readonly store: RunStore) {}

  /** Records an event of a run; `end` closes its live log (later subscribers read the file). */
  publish(runId: string, event: RunEvent): void {
    let log = this.live.get(runId);
    if (!log) {
      log = { events: this.store.readEvents(runId), wake: new Set() };
      this.live.set(runId, log);
    }
    this.store.appendEvent(runId, event);
    log.events.push(event);
    if (event.type === 'end') this.live.delete(runId);
    for (const wake of log.wake) wake();
    log.wake.clear();
  }

  /** The events of a run that is not live: the file's, ended by an `end` from its record when the file has none (a server killed mid-run). */
  private recorded(runId: string): RunEvent[] {
    const events = this.store.readEvents(runId);
    const record = this.store.get(runId);
    if (record && !events.some((e) => e.type === 'end') && (record.status === 'finished' || record.status === 'cancelled')) {
      events.push({ type: 'status', run: record }, { type: 'end', run: record });
    }
    return events;
  }

  /** Every event after `after` (0: all), then each new one, until `end` or the signal. */
  async *subscribe(runId: string, options: { after?: number; signal?: AbortSignal } = {}): AsyncGenerator<NumberedRunEvent> {
    let seen = options.after ?? 0;
    const { signal } = options;
    while (!signal?.aborted) {
      const log = this.live.get(runId);
      const events = log ? log.events : this.recorded(runId);
      while (seen < events.length) {
        const event = events[seen++]!;
        yield { seq: seen, event };
        if (event.type === 'end' || signal?.aborted) return;
      }
      if (!log) return;
      await new Promise<void>((resolve) => {
        const done = () => {
          signal?.removeEventListener('abort', done);
          log.wake.delete(done);
          resolve();
        };
        log.wake.add(done);
        signal?.addEventListener('abort', done, { once: true });
      });
    }
  }
}
