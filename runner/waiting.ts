// Waiting for something other checks hold (a webhook user of the target's
// receiver) is not the check's own time: it is left out of its time limit,
// so a check queued behind slow ones is not cut off for their slowness.
// Playwright's test is imported when a check waits, inside a worker (which
// has it already): the check files that import this module are also
// imported, without Playwright, to list the checks (runner/define.ts).

export async function waitingOnOtherChecks<T>(work: Promise<T>): Promise<T> {
  const { test } = await import('./fixtures.ts');
  const info = test.info();
  const limit = info.timeout;
  if (!limit) return work;
  const started = performance.now();
  info.setTimeout(0);
  try {
    return await work;
  } finally {
    info.setTimeout(limit + (performance.now() - started));
  }
}
