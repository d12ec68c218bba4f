// The structured channel beside the terminal's progress lines: the collector
// writes each finished check, whole, and each problem outside any check, as
// one JSON line (a run event: src/run-events/events.ts) to the Playwright
// process's file descriptor 3, a pipe runner/run-checks.ts opens; the
// orchestrator hands each on to the run's events, from which the run's
// results are built. The channel is how the checks leave the Playwright
// process.
import { writeSync } from 'node:fs';
import type { RunEvent, RunEventSink } from '../src/run-events/events.ts';
import { lineReader } from './lines.ts';

/** The child's file descriptor the events are written to. */
export const CHECK_EVENTS_FD = 3;

/** The events the channel carries. */
export type ChannelEvent = Extract<RunEvent, { kind: 'check' | 'problem' }>;

/** How long a write waits for the orchestrator to read a full pipe before the channel is given up. */
const FULL_PIPE_PATIENCE_MS = 60_000;

/** Writes one event to the channel; false when the descriptor is not open (Playwright started by other means) or nobody reads it. */
export function writeChannelEvent(event: ChannelEvent, fd = CHECK_EVENTS_FD): boolean {
  const bytes = Buffer.from(`${JSON.stringify(event)}\n`);
  let written = 0;
  let waits = 0;
  while (written < bytes.length) {
    try {
      written += writeSync(fd, bytes, written);
    } catch (error) {
      // A full pipe: the orchestrator reads it as it comes, so wait a millisecond and write on.
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN' || ++waits > FULL_PIPE_PATIENCE_MS) return false;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
    }
  }
  return true;
}

/** Reads the channel's bytes as run events; a line that is not one is ignored. */
export function checkEventReader(events: RunEventSink): (chunk: Buffer | string) => void {
  const lines = lineReader((line) => {
    if (!line.trim()) return;
    let event: ChannelEvent;
    try {
      event = JSON.parse(line) as ChannelEvent;
    } catch {
      return;
    }
    if (event.kind === 'check' || event.kind === 'problem') events(event);
  });
  return (chunk) => lines.write(chunk);
}
