// What `ptas serve`'s parts agree on: the store's records, the run queue's
// events, and the services the console's pages and the API for CI both call.
// The API (app/serve/api/) and the console (app/serve/console/) are two
// faces of these services; neither re-implements what app/ computes.
import type { RunVerdict } from '../../src/results/model.ts';
import type { Certification } from '../../src/results/certification-model.ts';
import type { Verdict } from '../../src/check/model.ts';

/** The longest profile text the server stores or checks, in characters: one limit for the API and the console (a profile is usually under 20 KB; the console's editor stays usable up to here). */
export const PROFILE_TEXT_MAX_CHARS = 1_000_000;

/** An implementation under certification: a name and its profile (JSON with comments, secrets as env:NAME only). */
export interface ImplementationRecord {
  /** [a-z0-9-]{1,64}, chosen from the name; the store's directory name. "reference" is reserved (the bundled reference). */
  id: string;
  name: string;
  /** The profile's text as the user wrote it (JSONC); its baseUrl is the implementation's. */
  profileText: string;
  createdAt: string;
  updatedAt: string;
}

export interface ImplementationSummary {
  id: string;
  name: string;
  baseUrl?: string;
  lastRun?: { id: string; verdict?: RunVerdict; finishedAt?: string };
  /** The verdicts of the latest runs, oldest first (the list's sparkline). */
  trend: Array<{ runId: string; verdict: RunVerdict; finishedAt: string }>;
}

export type RunStatus = 'queued' | 'running' | 'finished' | 'cancelled';

export interface RunOptionsInput {
  /** Run the load stage (default false in the console: a certification lab opts in). */
  load?: boolean;
  /** Explore with generated cases for this many seconds after the checks (ptas run --explore; explore/); absent: no exploration. */
  explore?: number;
  /** Playwright --grep, e.g. @area:auth or a requirement tag. */
  grep?: string;
  /** The certifier's nonce, bound into manifest.json. */
  nonce?: string;
  /** A waiver file's content (schemas/waivers.schema.json), stored with the run. */
  waivers?: unknown;
  /**
   * Run again only what failed or did not run in this earlier run of the same
   * implementation, joined to it as ptas merge joins attempts (app/serve/rerun.ts).
   * Asked for alone: the re-run takes the first run's load, nonce and waivers.
   */
  rerunOf?: string;
}

export interface RunRecord {
  /** Unguessable, URL-safe (base64url of 16 random bytes). */
  id: string;
  /** An implementation id, or "reference" for the bundled reference. */
  implementation: string;
  options: RunOptionsInput;
  status: RunStatus;
  /**
   * While queued: 1 = next to start for its implementation. Kept in memory
   * and added when the run is read, never stored: the queue moving does not
   * rewrite every waiting run's record.
   */
  queuePosition?: number;
  /** The name of the API token (or the console session's token) that asked for the run; never the token itself. */
  requestedBy?: string;
  createdAt: string;
  startedAt?: string;
  finishedAt?: string;
  verdict?: RunVerdict;
  counts?: Partial<Record<Verdict, number>>;
  /** Whether ptas verify accepts the run's bundle, and if not each gap with its fix (src/certify/certifiability.ts). */
  certification?: Certification;
  /** Why the run ended without a verdict of its checks (cancelled, the server stopped mid-run, an error). */
  note?: string;
  /**
   * Set once the run has ended: whether it wrote a bundle (a partial one for
   * a run cancelled while running), so that its report and archive can be
   * had. A run that never started, failed before its checks, or whose server
   * was killed under it has none.
   */
  bundle?: boolean;
}

/** What a run's live view receives, in order (server-sent events: the event name is `type`). */
export type RunEvent =
  | {
      type: 'status';
      run: RunRecord;
      /**
       * A waiting run's new queue position, sent live to whoever follows it:
       * not stored, not numbered (no SSE id), not replayed. A replayed status
       * of a run still waiting carries its position as it is now.
       */
      positionOnly?: true;
    }
  | {
      /**
       * A check finished. A second event for the same check id and target is
       * its final judgment and replaces the first (a run with a load stage
       * judges the cross-cutting checks again over the load stage's answers);
       * the counts already count it once.
       */
      type: 'check';
      check: { id: string; title: string; target: string; verdict: Verdict; reason?: string; durationMs: number };
      counts: Partial<Record<Verdict, number>>;
      elapsedMs: number;
      /** The checks the runner planned for the run, when known (the cross-cutting and load checks come on top). */
      planned?: number;
      /** The checks the run reports in all, when known: the runner's planned ones, the cross-cutting ones, and the load stage's when it runs ("n of N"). */
      expected?: number;
    }
  | { type: 'load-step'; probe: string; ratePerSecond: number; sent: number; refused: number; climb: number }
  | { type: 'log'; line: string }
  | { type: 'end'; run: RunRecord };
