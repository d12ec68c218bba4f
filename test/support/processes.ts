// Child processes of the tests: finding them by an environment marker, to
// prove a run left no child behind, and stopping one.
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export function processesWithMarker(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'latin1').includes(marker)) pids.push(Number(entry));
    } catch {
      // The process ended while we looked, or is not ours to read.
    }
  }
  return pids;
}

/** SIGTERM, then SIGKILL after 10 s; resolves once the process has exited (at once if it has). */
export async function stopProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
