// Loaded into the Playwright process a run starts, and so into each of its
// workers (node --import, as exit-with-parent.mjs): a worker waits for one of
// as many start slots as there are cores before it loads anything, and gives
// its slot back once it is ready to run its first check (runner/fixtures.ts
// calls releaseWorkerStartSlot). Why: a worker needs about a second of CPU to
// load Playwright and the checks; started all at once, sixteen workers shared
// two cores for ~25 s and no check began before every one was up. Started a
// core's worth at a time, the first checks (the longest waits: runner/define.ts)
// begin within seconds and wait while the next workers load.
//
// The slots are directories (mkdir is atomic) in the directory the run names
// in PTAS_WORKER_START_GATE; a slot whose holder died is taken over. A worker
// that never gets ready gives its slot back after MAX_HOLD_MS anyway.
// Plain JavaScript: it runs before any TypeScript loader is in place.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { holderAlive } from './lock-holder.mjs';

const GATE_ENV = 'PTAS_WORKER_START_GATE';
const SLOTS_ENV = 'PTAS_WORKER_START_SLOTS';
const POLL_MS = 50;
const MAX_HOLD_MS = 20_000;
const RELEASE = Symbol.for('ptas.releaseWorkerStartSlot');

// Only Playwright's workers wait: the run's main process starts them, and must not.
const isWorker = /workerProcessEntry\.js$/.test(process.argv[1] ?? '');
const gate = process.env[GATE_ENV];
const slots = Math.max(1, Number(process.env[SLOTS_ENV]) || 1);

function tryTake(slot) {
  try {
    mkdirSync(slot);
  } catch (error) {
    if (error.code !== 'EEXIST') throw error;
    if (holderAlive(slot)) return false;
    rmSync(slot, { recursive: true, force: true });
    return false;
  }
  writeFileSync(path.join(slot, 'pid'), String(process.pid));
  return true;
}

async function takeSlot() {
  mkdirSync(gate, { recursive: true, mode: 0o700 });
  for (;;) {
    for (let i = 0; i < slots; i++) {
      const slot = path.join(gate, `slot-${i}`);
      if (tryTake(slot)) return slot;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

if (isWorker && gate) {
  let slot;
  try {
    slot = await takeSlot();
  } catch {
    // A gate that cannot be used costs only speed: the worker starts at once.
  }
  if (slot) {
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      clearTimeout(timer);
      rmSync(slot, { recursive: true, force: true });
    };
    const timer = setTimeout(release, MAX_HOLD_MS);
    timer.unref();
    process.once('exit', release);
    globalThis[RELEASE] = release;
  }
}
