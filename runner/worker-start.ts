// The TypeScript side of runner/worker-start-gate.mjs: the environment that
// turns the gate on for a run's workers, and the call a ready worker makes to
// give its start slot back.
import os from 'node:os';
import path from 'node:path';

const RELEASE = Symbol.for('ptas.releaseWorkerStartSlot');

/** The environment of a run's Playwright process whose workers take turns to start, a core's worth at a time. */
export function workerStartGateEnv(scratch: string): Record<string, string> {
  return { PTAS_WORKER_START_GATE: path.join(scratch, 'worker-start'), PTAS_WORKER_START_SLOTS: String(os.availableParallelism()) };
}

/** Called once the worker is ready to run checks: the next worker may start loading. */
export function releaseWorkerStartSlot(): void {
  (globalThis as { [RELEASE]?: () => void })[RELEASE]?.();
}
