// Whether the process that holds a lock directory (runner/exclusive.ts, and
// the start slots of runner/worker-start-gate.mjs) is still alive: each
// holder writes its pid into the directory. Plain JavaScript: the start gate
// runs before any TypeScript loader is in place.
import { readFileSync } from 'node:fs';
import path from 'node:path';

export function holderAlive(lock) {
  try {
    const pid = Number(readFileSync(path.join(lock, 'pid'), 'utf8'));
    if (!Number.isInteger(pid) || pid <= 0) return true;
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // No pid file yet (the holder is between mkdir and write): alive. ESRCH: the holder is gone.
    return error.code !== 'ESRCH';
  }
}
