// What `ptas serve` can do, once, for both of its faces: the API for CI
// (app/serve/api/) and the console's pages (app/serve/console/), which the
// server hands this object to (server.ts registerExtra). Neither face
// re-implements what app/ computes: runs are ptasRun, the doctor is
// runDoctor, the starter profile is ptas init's, the comparison is
// `ptas report --baseline`'s. A refusal is a ServeError (errors.ts) with the
// HTTP status and the {error, message, details} body both faces show.
import { fromRoot } from '../../src/paths.ts';
import type { BaselineDiff } from '../../reports/baseline.ts';
import { ConfigError } from '../../src/config/errors.ts';
import { UnreachableError } from '../run/preflight.ts';
import { baseUrlProblem, defaultName } from '../init/questions.ts';
import { PROFILE_SCHEMA_BUNDLE } from '../init/schema-bundle.ts';
import { schemaRefFor } from '../init/init.ts';
import { renderStarterProfile } from '../init/starter-profile.ts';
import type { Preset } from '../init/preset-names.ts';
import type { ImplementationRecord, ImplementationSummary, RunRecord } from './contract.ts';
import { checkProfile, doctorForProfile, type DoctorResult, type ProfileCheck } from './doctor.ts';
import { notFound, ServeError, type ErrorBody } from './errors.ts';
import { stderrLog } from './log.ts';
import { RunEvents, type NumberedRunEvent } from './events.ts';
import { ImplementationService, type ImplementationInput } from './implementations.ts';
import { profilePolicy, type ProfilePolicy } from './profile-policy.ts';
import type { RunSecrets } from './profile-text.ts';
import { RunQueue } from './queue.ts';
import { RunService, type RunArchive, type StartRunInput } from './runs.ts';
import { ShareStore, type ShareInfo } from './shares.ts';
import { AuditLog } from './audit.ts';
import type { ReviewInput, ReviewItem } from './reviews.ts';
import type { ReviewDecision } from '../../src/results/reviews.ts';
import type { UnstableCheck } from '../../src/results/instability.ts';
import { ImplementationStore } from './store/implementations.ts';
import { StoreLayout } from './store/layout.ts';
import { RunStore } from './store/runs.ts';
import { TokenStore, type TokenInfo, type VerifiedToken } from './tokens.ts';
import { TicketStore } from './tickets.ts';
import { UnstableChecks } from './unstable-checks.ts';
import { RejudgePreviews, type RejudgeOverview } from './rejudge-preview.ts';
import type { Role } from './roles.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export type { DoctorResult, ProfileCheck } from './doctor.ts';
export type { NumberedRunEvent } from './events.ts';
export type { ImplementationInput } from './implementations.ts';
export type { RunSecrets } from './profile-text.ts';
export type { RunArchive, StartRunInput } from './runs.ts';

export interface ServeServices {
  /** The store's root (--data), absolute. */
  readonly dataDir: string;

  implementations: {
    list(): ImplementationRecord[];
    /** A stored implementation, or "reference": the bundled reference's record, whose page lists its runs (saving it is refused, 409). */
    get(id: string): ImplementationRecord | undefined;
    /** Creates or replaces; refuses (422) a text that does not parse or validate, or holds a secret in the clear. */
    put(id: string, input: ImplementationInput): { record: ImplementationRecord; created: boolean };
    /** Stores a new implementation under an id made from its name. */
    create(input: ImplementationInput): ImplementationRecord;
    /** Its runs and bundles stay; refused (409) while one of its runs waits or runs. */
    remove(id: string): void;
    /** Every stored implementation, then the bundled reference ("reference"), each with its last run and trend. */
    summaries(): ImplementationSummary[];
    /** What put would say of the text, without storing it. */
    validate(profileText: string): { ok: true } | { ok: false; error: ErrorBody };
    /** Its checks whose verdict differs between its runs of one suite version and profile (unstable-checks.ts); 404 for an unknown implementation. */
    unstableChecks(id: string): UnstableCheck[];
  };

  runs: {
    /** Queues a run (202 in the API); refused (422) when its profile cannot be resolved or names a target the policy refuses, 429 when the token or the server has as many runs waiting as it may. */
    start(input: StartRunInput): Promise<RunRecord>;
    get(runId: string): RunRecord | undefined;
    /** Newest first. */
    list(filter?: { implementation?: string }): RunRecord[];
    /** Removes a waiting run, or stops a running one and answers once it stopped (its partial bundle written). */
    cancel(runId: string): Promise<RunRecord>;
    /** Every past event after `after` (0: all), then each new one, ending with `end`; stop early with the signal. */
    events(runId: string, options?: { after?: number; signal?: AbortSignal }): AsyncGenerator<NumberedRunEvent>;
    /** The bundle folder once written, else undefined. */
    bundleDir(runId: string): string | undefined;
    /** The bundle's index.html (409 not-ready before the run wrote it). */
    reportFile(runId: string): string;
    /** The bundle as a .tar.gz stream (409 not-ready before the run wrote it). */
    archive(runId: string): RunArchive;
    /** Run `runId` against the baseline run `baselineId`: `ptas report --baseline`'s diff. */
    compare(runId: string, baselineId: string): BaselineDiff;
    /** The run's REVIEW checks, each with its reviewer's decision when it has one (409 not-ready before the bundle). */
    reviews(runId: string): ReviewItem[];
    /** Records a reviewer's decision on a REVIEW check into the run's bundle (its reviews.json, report and manifest). */
    review(runId: string, input: ReviewInput, by: string): ReviewDecision;
    /** Every ended run (of one implementation, if given) judged again by the installed suite, offline, writing nothing (rejudge-preview.ts); 404 for an unknown implementation. */
    rejudgePreview(filter?: { implementation?: string }): Promise<RejudgeOverview>;
  };

  shares: {
    /** A new read-only link to the run's report: "/share/<token>", shown once; it expires after `expiresInDays` when given. */
    create(runId: string, options?: { expiresInDays?: number; createdBy?: string }): { url: string; token: string; share: ShareInfo };
    /** The run's links, live or not, oldest first (never their tokens). */
    list(runId: string): ShareInfo[];
    /** Revokes the run's live links, every one or the one with this id; how many were live. */
    revoke(runId: string, id?: string): number;
    /** The live link a token is (its run, its expiry). */
    resolve(token: string): ShareInfo | undefined;
  };

  tokens: {
    /** The live token's name and role, or undefined (wrong, revoked, expired, missing); constant-time over every stored hash. */
    verify(token: string | undefined): VerifiedToken | undefined;
    /** A new token (admin unless a role is given), shown once. */
    create(name: string, options?: { role?: Role; expiresInMs?: number }): string;
    revoke(name: string): boolean;
    list(): TokenInfo[];
    /** Whether a listed token still works: neither revoked nor expired. */
    isLive(token: TokenInfo): boolean;
  };

  /** Who changed what (audit.ts): each face records its changes; admin tokens read it (GET /api/audit). */
  audit: AuditLog;

  /** One-use tickets to a run's report and bundle for a console session (tickets.ts): minted by POST /api/runs/:id/tickets, redeemed by the console's run files. */
  readonly tickets: TicketStore;

  /** `ptas doctor` on a profile text (JSON mode): each configured operation tried once; 422 for a profile that cannot be resolved or reaches what the policy refuses, 502 when the target does not answer. */
  doctor(profileText: string, secrets?: RunSecrets): Promise<DoctorResult>;

  /** The console's Check (doctor.ts checkProfile): the doctor's table for a profile being edited, or why nothing was tried. */
  check(profileText: string, secrets?: RunSecrets): Promise<ProfileCheck>;

  /** `ptas init --yes`'s commented starter profile. */
  starterProfile(options?: { name?: string; baseUrl?: string; schemaRef?: string }): string;
  /** `ptas init --preset`'s complete profile for the bundled reference started that way at `baseUrl` (app/init/presets.ts). */
  presetProfile(preset: Preset, options: { baseUrl: string; schemaRef?: string }): Promise<string>;

  /** schemas/ptas-profile.bundle.json: the profile's JSON Schema as one file, for the editor. */
  readonly profileSchemaPath: string;

  /** What stored profiles may read and reach: the operator's --secret-env, --allow-target and --profile-files. */
  readonly policy: ProfilePolicy;

  /** Stops every run (each finishes INCOMPLETE with its partial bundle) and finishes the waiting ones. */
  close(): Promise<void>;
}

export interface ServicesOptions {
  dataDir: string;
  /** Runs at once over all implementations (one per implementation in any case); default 1. */
  maxConcurrentRuns?: number;
  /** Runs that may wait at once over all tokens; default 100 (runs.ts DEFAULT_MAX_QUEUED_RUNS). */
  maxQueuedRuns?: number;
  /** Runs that may wait at once for one token; default 20. */
  maxQueuedRunsPerToken?: number;
  /** The server's environment, read for the names secretEnv allows; default process.env. */
  env?: NodeJS.ProcessEnv;
  /** --secret-env: the variables (names, or prefixes ending in *) stored profiles may read as secrets; default none. */
  secretEnv?: readonly string[];
  /** --allow-target: the hosts runs and Check may call (names, *.suffix, addresses, CIDRs); default: any but link-local, metadata, unspecified, the server's own address and (off loopback) loopback. */
  allowTargets?: readonly string[];
  /** --profile-files: the folder profiles' file keys (http.ca, auth.jwksFile, …) are relative to; default none (refused). */
  profileFiles?: string;
  /** How host names resolve (tests); default the system's resolver. */
  resolveHost?: (host: string) => Promise<string[]>;
  /** The server's log; default stderr. */
  log?: (line: string) => void;
}

export interface CreatedServices {
  services: ServeServices;
  /** The token made because no live token existed (a first start): to show once. */
  firstRunToken?: { name: string; token: string };
  /** Runs the last server left queued or running, now finished INCOMPLETE. */
  recovered: RunRecord[];
}

const DEFAULT_BASE_URL = 'http://127.0.0.1:8080';
/** The starter's client id, for the user to replace with their test client's. */
const STARTER_CLIENT_ID = 'your-client-id';

export function createServices(options: ServicesOptions): CreatedServices {
  const layout = new StoreLayout(options.dataDir);
  layout.ensure();
  const log = options.log ?? stderrLog;
  const policy = profilePolicy({
    env: options.env ?? process.env,
    ...(options.secretEnv ? { secretEnv: options.secretEnv } : {}),
    ...(options.allowTargets ? { allowTargets: options.allowTargets } : {}),
    ...(options.profileFiles ? { profileFiles: options.profileFiles } : {}),
    ...(options.resolveHost ? { resolveHost: options.resolveHost } : {}),
  });
  const implementationStore = new ImplementationStore(layout);
  const runStore = new RunStore(layout, () => implementationStore.list());
  const events = new RunEvents(runStore);
  const runs = new RunService({
    layout,
    store: runStore,
    implementations: implementationStore,
    events,
    queue: new RunQueue(options.maxConcurrentRuns ?? 1),
    policy,
    log,
    ...(options.maxQueuedRuns !== undefined ? { maxQueuedRuns: options.maxQueuedRuns } : {}),
    ...(options.maxQueuedRunsPerToken !== undefined ? { maxQueuedRunsPerToken: options.maxQueuedRunsPerToken } : {}),
  });
  const implementations = new ImplementationService(implementationStore, (filter) => runStore.list(filter), policy);
  const unstableChecks = new UnstableChecks(runStore);
  const rejudgePreviews = new RejudgePreviews(runStore);
  const tokens = new TokenStore(layout.tokensFile);
  const shares = new ShareStore(layout.sharesFile);
  const recovered = runs.recover();
  const firstRunToken = tokens.createFirstRunToken();

  const doctor = async (profileText: string, secrets?: RunSecrets): Promise<DoctorResult> => {
    try {
      return await doctorForProfile(profileText, policy, secrets);
    } catch (error) {
      if (error instanceof UnreachableError) throw new ServeError('unreachable', error.message);
      if (error instanceof ConfigError) throw new ServeError('invalid-profile', error.message, { keyPath: error.keyPath });
      throw error;
    }
  };

  const services: ServeServices = {
    dataDir: layout.root,
    audit: new AuditLog(layout.auditFile),
    tickets: new TicketStore(),
    implementations: {
      list: () => implementations.list(),
      get: (id) => implementations.get(id),
      put: (id, input) => implementations.put(id, input),
      create: (input) => implementations.create(input),
      remove: (id) => implementations.remove(id),
      summaries: () => implementations.summaries(),
      validate: (text) => implementations.validate(text),
      unstableChecks: (id) => {
        if (!implementations.get(id)) throw notFound(`implementation ${id}`);
        return unstableChecks.of(id);
      },
    },
    runs: {
      start: (input) => runs.start(input),
      get: (id) => runs.get(id),
      list: (filter) => runs.list(filter),
      cancel: (id) => runs.cancel(id),
      events: (id, opts) => runs.events(id, opts),
      bundleDir: (id) => runs.bundleDir(id),
      reportFile: (id) => runs.reportFile(id),
      archive: (id) => runs.archive(id),
      compare: (id, baselineId) => runs.compare(id, baselineId),
      reviews: (id) => runs.reviews(id),
      review: (id, input, by) => runs.review(id, input, by),
      rejudgePreview: async (filter = {}) => {
        if (filter.implementation !== undefined && !implementations.get(filter.implementation)) throw notFound(`implementation ${filter.implementation}`);
        return rejudgePreviews.of(filter);
      },
    },
    shares: {
      create: (runId, options = {}) => {
        runs.reportFile(runId);
        const expiresInMs = options.expiresInDays === undefined ? undefined : options.expiresInDays * DAY_MS;
        const { token, share } = shares.create(runId, { expiresInMs, createdBy: options.createdBy });
        return { token, url: `/share/${token}`, share };
      },
      list: (runId) => {
        if (!runs.get(runId)) throw new ServeError('not-found', `run ${runId} does not exist`);
        return shares.list(runId);
      },
      revoke: (runId, id) => {
        if (!runs.get(runId)) throw new ServeError('not-found', `run ${runId} does not exist`);
        const revoked = shares.revoke(runId, id);
        if (id !== undefined && !revoked) throw new ServeError('not-found', `run ${runId} has no live share link ${id}`);
        return revoked;
      },
      resolve: (token) => shares.resolve(token),
    },
    tokens: {
      verify: (token) => tokens.verify(token),
      create: (name, options) => tokens.create(name, options),
      revoke: (name) => tokens.revoke(name),
      list: () => tokens.list(),
      isLive: (token) => tokens.isLiveInfo(token),
    },
    doctor,
    check: (profileText, secrets) => checkProfile(profileText, (text) => doctor(text, secrets)),
    starterProfile: ({ name, baseUrl = DEFAULT_BASE_URL, schemaRef = schemaRefFor(fromRoot('ptas-profile.jsonc')) } = {}) => {
      const problem = baseUrlProblem(baseUrl);
      if (problem) throw new ServeError('invalid-request', `baseUrl ${baseUrl}: ${problem}`, { keyPath: '/baseUrl' });
      // A client id written out: on the server, env: references are read only where a secret goes (profile-text.ts).
      return renderStarterProfile({ name: name || defaultName(baseUrl), baseUrl, clientId: STARTER_CLIENT_ID }, { schemaRef });
    },
    presetProfile: async (preset, { baseUrl, schemaRef = schemaRefFor(fromRoot('ptas-profile.jsonc')) }) => {
      const problem = baseUrlProblem(baseUrl);
      if (problem) throw new ServeError('invalid-request', `baseUrl ${baseUrl}: ${problem}`, { keyPath: '/baseUrl' });
      // Loaded when asked: a preset is the reference's own profile, and the reference's modules are many.
      const { renderPresetProfile } = await import('../init/presets.ts');
      return renderPresetProfile(preset, { baseUrl, schemaRef });
    },
    profileSchemaPath: PROFILE_SCHEMA_BUNDLE,
    policy,
    close: () => runs.close(),
  };
  return { services, recovered, ...(firstRunToken ? { firstRunToken } : {}) };
}
