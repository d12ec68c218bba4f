// The structured channel beside the terminal's progress lines: when the run's
// settings ask for it (`events`, runner/settings.ts), the collector writes
// each finished check as one JSON line to the Playwright process's file
// descriptor 3, a pipe runner/run-checks.ts opens, and the orchestrator hands
// each to its caller's onCheck (`ptas serve` turns them into live events).
// A line carries what a live view shows, not the evidence (results.json has it).
import { writeSync } from 'node:fs';
import type { CheckResult } from '../src/check/model.ts';

/** The child's file descriptor the check lines are written to. */
export const CHECK_EVENTS_FD = 3;

/** One finished check, as the channel carries it. */
export interface FinishedCheck extends Pick<CheckResult, 'id' | 'title' | 'area' | 'severity' | 'requirements' | 'target' | 'verdict' | 'reason' | 'durationMs'> {
  /** The checks the run planned (Playwright's tests; the cross-cutting and load checks come on top), when known. */
  planned?: number;
}

/** Called once per finished check: the runner's, then the cross-cutting ones, then the load stage's. */
export type OnCheck = (check: FinishedCheck) => void;

export function finishedCheck(check: CheckResult, planned?: number): FinishedCheck {
  const { id, title, area, severity, requirements, target, verdict, reason, durationMs } = check;
  return { id, title, area, severity, requirements, target, verdict, ...(reason ? { reason } : {}), durationMs, ...(planned ? { planned } : {}) };
}

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

/** Splits the channel's bytes into check lines; a line that is not one is ignored. */
export function checkEventReader(onCheck: OnCheck): (chunk: Buffer | string) => void {
  let pending = '';
  return (chunk) => {
    pending += chunk.toString();
    let newline: number;
    while ((newline = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      if (!line.trim()) continue;
      let check: FinishedCheck;
      try {
        check = JSON.parse(line) as FinishedCheck;
      } catch {
        continue;
      }
      onCheck(check);
    }
  };
}
