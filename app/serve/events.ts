// Each run's events (contract.ts RunEvent), in order: written to the run's
// events.jsonl as they happen and held in memory while the run is live, so a
// subscriber gets every past event and then each new one as it comes, up to
// and including `end`. Events are numbered from 1 (the server-sent events'
// ids), so a client that reconnects continues after the last one it saw.
//
// A waiting run's moves up the queue are not events of that kind: they are
// `notify`'d to whoever follows the run at that moment and to nobody else
// (not written, not numbered, not replayed; a follower that has not taken the
// last one yet gets only the newest, and none once a stored event came after
// it). So the queue moving costs one object per follower, not a write per
// waiting run, and a run's numbering is the same live and replayed.
import type { RunEvent } from './contract.ts';
import type { RunStore } from './store/runs.ts';

export interface NumberedRunEvent {
  /** 1 for the run's first event; for a notified (position-only) event, the number of the stored event before it. */
  seq: number;
  event: RunEvent;
}

/** A live subscriber's notification not taken yet (the newest only). */
interface Follower {
  latest?: RunEvent;
}

interface LiveLog {
  events: RunEvent[];
  wake: Set<() => void>;
  followers: Set<Follower>;
}

export class RunEvents {
  private readonly live = new Map<string, LiveLog>();

  constructor(private readonly store: RunStore) {}

  /** Records an event of a run; `end` closes its live log (later subscribers read the file). */
  publish(runId: string, event: RunEvent): void {
    let log = this.live.get(runId);
    if (!log) {
      log = { events: this.store.readEvents(runId), wake: new Set(), followers: new Set() };
      this.live.set(runId, log);
    }
    this.store.appendEvent(runId, event);
    log.events.push(event);
    // A stored event supersedes a notification not taken yet (a run that started is no longer at position 1).
    for (const follower of log.followers) delete follower.latest;
    if (event.type === 'end') this.live.delete(runId);
    this.wakeAll(log);
  }

  /** Tells whoever follows the live run now, and nobody later; `event` is made only when someone does. */
  notify(runId: string, event: () => RunEvent): void {
    const log = this.live.get(runId);
    if (!log?.followers.size) return;
    const made = event();
    for (const follower of log.followers) follower.latest = made;
    this.wakeAll(log);
  }

  private wakeAll(log: LiveLog): void {
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

  /** Every event after `after` (0: all), then each new one (and each notification while following), until `end` or the signal. */
  async *subscribe(runId: string, options: { after?: number; signal?: AbortSignal } = {}): AsyncGenerator<NumberedRunEvent> {
    let seen = options.after ?? 0;
    const { signal } = options;
    const follower: Follower = {};
    let following: LiveLog | undefined;
    try {
      while (!signal?.aborted) {
        const log = this.live.get(runId);
        if (log !== following) {
          following?.followers.delete(follower);
          log?.followers.add(follower);
          following = log;
        }
        const events = log ? log.events : this.recorded(runId);
        while (seen < events.length) {
          const event = events[seen++]!;
          yield { seq: seen, event };
          if (event.type === 'end' || signal?.aborted) return;
        }
        if (!log) return;
        if (follower.latest) {
          const event = follower.latest;
          delete follower.latest;
          yield { seq: seen, event };
          continue;
        }
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
    } finally {
      following?.followers.delete(follower);
    }
  }
}
