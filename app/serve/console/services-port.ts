// What the console needs from `ptas serve`'s services (app/serve/services.ts):
// the port its routes are written against, and all they may call. The real
// ServeServices does not satisfy it as it is: the adapter, a few lines per
// method, is app/serve/console-port.ts (what bin/serve-command.ts hands the
// console in server.ts's registerExtra), not the console. Tests use it on a
// real server (test/serve/console-wiring.test.ts, e2e-browser.test.ts) and
// an in-memory fake (test/serve/support/fake-services.ts).
//
// Rules the console relies on:
// - ids come from the services; the console checks their shape
//   (app/serve/console/ids.ts) before passing any on, so a method may treat
//   an id it does not know as "not found" (undefined), never as a path;
// - nothing here returns a secret: a profile's secrets are env:NAME
//   references as the user typed them, and the one-run secrets given to
//   runs.start are neither stored in the run's record nor echoed.
import type { Preset } from '../../init/preset-names.ts';
import type { Readable } from 'node:stream';
import type { ImplementationRecord, ImplementationSummary, RunEvent, RunOptionsInput, RunRecord } from '../contract.ts';
import type { DoctorSummary, ImplementationInput, RunComparison } from './api-types.ts';
import type { Role } from '../roles.ts';

/** Who a token belongs to (the API's Bearer tokens; the console's login takes the same ones). */
export interface TokenRecord {
  id: string;
  /** Shown in the console's header ("signed in as …"). */
  label?: string;
  /** What the token may do (app/serve/roles.ts); absent in sessions kept from before roles, whose tokens were all admin. */
  role?: Role;
}

/** A run's certification bundle as one archive (e.g. a .tar.gz of its folder). */
export interface BundleArchive {
  /** The download's file name; the console keeps [A-Za-z0-9._-] of it. */
  filename: string;
  /** Default application/gzip. */
  contentType?: string;
  stream: Readable;
}

/** Stops a subscription; calling it twice is harmless. */
export type Unsubscribe = () => void;

export interface ServeServices {
  implementations: {
    /** Every implementation with its last run and trend, for the list page. */
    summaries(): Promise<ImplementationSummary[]>;
    get(id: string): Promise<ImplementationRecord | undefined>;
    /** Refuses (throws an Error whose message is shown) a name or profile it cannot store. */
    create(input: ImplementationInput): Promise<ImplementationRecord>;
    /** undefined: no such implementation. */
    update(id: string, input: ImplementationInput): Promise<ImplementationRecord | undefined>;
  };
  runs: {
    /**
     * Queues a run of the implementation's stored profile. `secrets` are the
     * values of its env:NAME references for this run only (they take
     * precedence over the server's environment); never stored, never in the
     * record. `clientSecret`: the client secret of a profile that leaves it
     * out, for this run only, under the same rules. `requestedBy`: the
     * session's token name, recorded with the run and held to that token's
     * bound on waiting runs. Throws an Error whose message is shown when it
     * cannot start.
     */
    start(implementationId: string, options: RunOptionsInput, secrets?: Record<string, string>, clientSecret?: string, requestedBy?: string): Promise<RunRecord>;
    get(runId: string): Promise<RunRecord | undefined>;
    /** The implementation's runs, newest first. */
    list(implementationId: string): Promise<RunRecord[]>;
    /** Ends a queued or running run INCOMPLETE (status cancelled); a finished run is returned as it is. undefined: no such run. */
    cancel(runId: string): Promise<RunRecord | undefined>;
    /**
     * The run's events: every event so far, in order, at once (replay), then
     * each new one as it happens, ending with 'end' (a finished run replays
     * its whole life, 'end' last). undefined: no such run.
     */
    subscribe(runId: string, listener: (event: RunEvent) => void): Promise<Unsubscribe | undefined>;
    /** The run's index.html (its own CSP in a meta element), once written. */
    report(runId: string): Promise<string | undefined>;
    /** The run's bundle as one archive, once written. */
    bundle(runId: string): Promise<BundleArchive | undefined>;
    /** The baseline diff of `runId` against `baselineRunId` (both finished). undefined: either is unknown or has no results. */
    compare(baselineRunId: string, runId: string): Promise<RunComparison | undefined>;
  };
  tokens: {
    /** The token's record when it is valid; undefined otherwise. */
    verify(token: string): Promise<TokenRecord | undefined>;
    /**
     * Whether the token a session signed in with (the record verify gave)
     * still works: once it is revoked, its sessions end at their next request,
     * as the API refuses it at once.
     */
    isLive(token: TokenRecord): Promise<boolean>;
  };
  /**
   * `ptas doctor` on a profile's text (not stored first): its rows, each broken key with its fix. Refuses (throws an Error whose statusCode is 422) a profile the server would not store or run.
   * `secrets`: the one-run values of its env: references (and its client secret), as a run takes them.
   */
  doctor(profileText: string, secrets?: { env?: Record<string, string>; clientSecret?: string }): Promise<DoctorSummary>;
  /** `ptas init`'s commented starter profile. */
  starterProfileText(): Promise<string>;
  /** `ptas init --preset`'s complete profile for the bundled reference started that way at `baseUrl`; a base URL it cannot use is refused (400). */
  presetProfileText(preset: Preset, baseUrl: string): Promise<string>;
  /** schemas/ptas-profile.bundle.json: the editor validates and completes against it. */
  profileSchemaPath: string;
}
