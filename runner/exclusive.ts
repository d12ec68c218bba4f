// Mutual exclusion across Playwright's worker processes, for checks that
// change state the implementation holds once per user (the newest offer of a
// user, spec 4.4 rule 1): two such checks on one user at the same time would
// supersede each other's offers and read the race as a violation. Checks that
// get a user of their own never wait; checks on a shared user take turns,
// automatically, whatever the number of workers.
//
// The lock is a directory (mkdir is atomic) under the run's lock directory
// (runner/settings.ts), inside the scratch directory removed after the run. A holder that
// died leaves its pid behind, and the next taker clears the stale lock.
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readRunSettings } from './settings.ts';
import { holderAlive } from './lock-holder.mjs';

const POLL_MS = 25;

/**
 * Waits until this process holds the lock named `scope` and returns its
 * release function. `onWait` is told once when another holder makes it wait.
 * `root`: the directory of the locks, the run's unless a test names its own.
 */
export async function acquireExclusive(scope: string, onWait?: () => void, root = readRunSettings().paths.locks): Promise<() => void> {
  mkdirSync(root, { recursive: true, mode: 0o700 });
  const lock = path.join(root, createHash('sha256').update(scope).digest('hex').slice(0, 24));
  let told = false;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(path.join(lock, 'pid'), String(process.pid));
      let released = false;
      return () => {
        if (released) return;
        released = true;
        rmSync(lock, { recursive: true, force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (!holderAlive(lock)) {
        rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (!told) {
        told = true;
        onWait?.();
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
}
