// The structured channel beside the terminal's progress lines: when the run's
// settings ask for it (`checkEvents`, runner/settings.ts), the collector writes
// each finished check as one JSON line to the Playwright process's file
// descriptor 3, a pipe runner/run-checks.ts opens, and the orchestrator hands
// each on as a check event of the run (src/run-events/events.ts).
// A line carries what a live view shows, not the evidence (results.json has it).
import { writeSync } from 'node:fs';
import type { FinishedCheck, RunEventSink } from '../src/run-events/events.ts';
import { lineReader } from './lines.ts';

/** The child's file descriptor the check lines are written to. */
export const CHECK_EVENTS_FD = 3;

/** Writes one check line to the channel; false when the descriptor is not open (Playwright started by other means). */
export function writeCheckEvent(check: FinishedCheck, fd = CHECK_EVENTS_FD): boolean {
  const bytes = Buffer.from(`${JSON.stringify(check)}\n`);
  let written = 0;
  let waits = 0;
  while (written < bytes.length) {
    try {
      written += writeSync(fd, bytes, written);
    } catch (error) {
      // A full pipe: the orchestrator reads it as it comes, so wait a millisecond (up to 5 s) and write on.
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN' || ++waits > 5_000) return false;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
    }
  }
  return true;
}

/** Reads the channel's bytes as check events; a line that is not one is ignored. */
export function checkEventReader(events: RunEventSink): (chunk: Buffer | string) => void {
  const lines = lineReader((line) => {
    if (!line.trim()) return;
    let check: FinishedCheck;
    try {
      check = JSON.parse(line) as FinishedCheck;
    } catch {
      return;
    }
    events({ kind: 'check', check });
  });
  return (chunk) => lines.write(chunk);
}
