// The defaults `ptas serve --help` shows, apart from the server they
// configure: the command line reads them without loading the server.

export const DEFAULT_PORT = 7300;
export const DEFAULT_HOST = '127.0.0.1';

/** The default bounds on waiting runs (ptas serve --max-queued-runs, --max-queued-runs-per-token). */
export const DEFAULT_MAX_QUEUED_RUNS = 100;
export const DEFAULT_MAX_QUEUED_RUNS_PER_TOKEN = 20;
