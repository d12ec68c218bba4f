// Loaded into the Playwright process the run starts, and so into each of its
// workers (node --import; Playwright passes its own flags on to them): when
// the process that started it is gone — a `ptas serve` or `ptas run` killed
// outright, whose handlers never ran — it stops, as on Ctrl-C, instead of
// going on sending requests to the target with nobody to read its results.
// Polled: the parent's death sends no signal to its children, and a run can
// write nothing for a minute (a long poll), so a broken pipe would come late.
// Plain JavaScript: it runs before any TypeScript loader is in place.
const parent = process.ppid;
const POLL_MS = 500;
const GRACE_MS = 5_000;

const timer = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(timer);
  // Playwright's own Ctrl-C path stops the tests in flight and its workers; if that hangs, exit anyway.
  setTimeout(() => process.exit(130), GRACE_MS).unref();
  process.kill(process.pid, 'SIGINT');
}, POLL_MS);
timer.unref();
