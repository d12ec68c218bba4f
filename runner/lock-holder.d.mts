// Types of runner/lock-holder.mjs.
/** Whether the process whose pid the lock directory holds is alive (true while the pid is not written yet). */
export function holderAlive(lock: string): boolean;
