// An in-memory stand-in for `ptas serve`'s services, shaped by the console's
// port (app/serve/console/services-port.ts), for the console's tests and
// benchmark. Runs of one implementation take turns (the others queue, with
// their position); a run emits a check event every `checkIntervalMs` and
// ends CONFORMANT (each check PASS unless `checkVerdict` says otherwise);
// a cancel ends it INCOMPLETE. Reports, bundles and comparisons are real:
// results built from the checks the run emitted, rendered by reports/html.ts,
// packed with tar-stream, compared by reports/baseline.ts.
// With `autoProgress: false` a run stays running until the test emits its
// checks (emitCheck) and ends it (finish), at times it chooses.
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import tar from 'tar-stream';
import type { ImplementationRecord, ImplementationSummary, RunEvent, RunOptionsInput, RunRecord } from '../../../app/serve/contract.ts';
import type { DoctorRowView, DoctorSummary, ImplementationInput, RunComparison } from '../../../app/serve/console/api-types.ts';
import type { BundleArchive, ServeServices, TokenRecord, Unsubscribe } from '../../../app/serve/console/services-port.ts';
import { renderPresetProfile } from '../../../app/init/presets.ts';
import { baseUrlProblem } from '../../../app/init/questions.ts';
import { ServeError } from '../../../app/serve/errors.ts';
import type { Preset } from '../../../app/init/preset-names.ts';
import { renderStarterProfile } from '../../../app/init/starter-profile.ts';
import type { CheckResult, Verdict } from '../../../src/check/model.ts';
import { parseJsonc } from '../../../src/config/jsonc.ts';
import { fromRoot } from '../../../src/paths.ts';
import { buildResults } from '../../../src/results/build.ts';
import type { RunResults } from '../../../src/results/model.ts';
import { catalogue } from '../../../src/requirements.ts';
import { compareWithBaseline } from '../../../reports/baseline.ts';
import { renderHtml } from '../../../reports/html.ts';
import { seededRandom, syntheticCheck } from '../../report/support/synthetic.ts';
import { certificationNeeds } from '../../../app/certify/certification-needs.ts';
import { requiredCheckIds } from '../../../app/certify/required-checks.ts';
import type { Profile } from '../../../src/config/profile.ts';

export const FAKE_TOKEN = 'ptas_test_token_0123456789abcdef';

export interface FakeOptions {
  /** Tokens the fake accepts (default FAKE_TOKEN, label "tester"). */
  tokens?: Record<string, TokenRecord>;
  /** A number, or one by the run's ordinal (0 = the first run started). */
  checksPerRun?: number | ((runOrdinal: number) => number);
  checkIntervalMs?: number;
  /** How long a run that can start waits before it runs. */
  startDelayMs?: number;
  /** false: runs only move when the test calls emitCheck and finish. */
  autoProgress?: boolean;
  /** A check's verdict by the run's ordinal (0 = the first run started) and the check's index; default PASS. */
  checkVerdict?: (runOrdinal: number, checkIndex: number) => Verdict;
  /** Changes to a check before it is emitted (hostile titles and reasons). */
  decorateCheck?: (check: CheckResult, runOrdinal: number, checkIndex: number) => Partial<CheckResult>;
}

interface RunState {
  record: RunRecord;
  ordinal: number;
  events: RunEvent[];
  listeners: Set<(event: RunEvent) => void>;
  checks: CheckResult[];
  timer?: NodeJS.Timeout;
  startedMs?: number;
  results?: RunResults;
}

const requirementsByArea = (() => {
  let map: Map<string, string[]> | undefined;
  return () => {
    if (!map) {
      map = new Map();
      for (const r of catalogue().requirements) map.set(r.area, [...(map.get(r.area) ?? []), r.id]);
    }
    return map;
  };
})();

function slug(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 56) || 'implementation';
}

function baseUrlOf(profileText: string): string | undefined {
  try {
    const profile = parseJsonc(profileText) as { baseUrl?: unknown };
    return typeof profile?.baseUrl === 'string' ? profile.baseUrl : undefined;
  } catch {
    return undefined;
  }
}

const now = () => new Date().toISOString();

export class FakeServices implements ServeServices {
  readonly profileSchemaPath = fromRoot('schemas', 'ptas-profile.bundle.json');
  readonly #options: Required<Omit<FakeOptions, 'tokens' | 'checksPerRun'>> & { tokens: Record<string, TokenRecord>; checksPerRun: (runOrdinal: number) => number };
  readonly #implementations = new Map<string, ImplementationRecord>();
  readonly #runs = new Map<string, RunState>();
  #ordinal = 0;
  /** The one-run secrets each run was started with (tests check they arrive, and go nowhere else). */
  readonly secretsByRun = new Map<string, Record<string, string>>();
  /** Every profile text the doctor was asked about. */
  readonly doctored: string[] = [];
  /** The one-run secrets each of those Checks came with. */
  readonly doctoredSecrets: Array<{ env?: Record<string, string>; clientSecret?: string } | undefined> = [];

  constructor(options: FakeOptions = {}) {
    this.#options = {
      tokens: options.tokens ?? { [FAKE_TOKEN]: { id: 'tester', label: 'tester' } },
      checksPerRun: typeof options.checksPerRun === 'function' ? options.checksPerRun : () => (options.checksPerRun as number | undefined) ?? 5,
      checkIntervalMs: options.checkIntervalMs ?? 300,
      startDelayMs: options.startDelayMs ?? 100,
      autoProgress: options.autoProgress ?? true,
      checkVerdict: options.checkVerdict ?? (() => 'PASS'),
      decorateCheck: options.decorateCheck ?? (() => ({})),
    };
  }

  // ---- implementations

  implementations = {
    summaries: async (): Promise<ImplementationSummary[]> => [...this.#implementations.values()].map((i) => this.#summary(i)),
    get: async (id: string) => this.#implementations.get(id),
    create: async (input: ImplementationInput): Promise<ImplementationRecord> => {
      let id = slug(input.name);
      for (let n = 2; this.#implementations.has(id) || id === 'reference'; n++) id = `${slug(input.name)}-${n}`;
      const at = now();
      const record: ImplementationRecord = { id, name: input.name, profileText: input.profileText, createdAt: at, updatedAt: at };
      this.#implementations.set(id, record);
      return record;
    },
    update: async (id: string, input: ImplementationInput) => {
      const record = this.#implementations.get(id);
      if (!record) return undefined;
      Object.assign(record, { name: input.name, profileText: input.profileText, updatedAt: now() });
      return record;
    },
  };

  #summary(i: ImplementationRecord): ImplementationSummary {
    const runs = this.#runsOf(i.id);
    const last = runs[0]?.record;
    const trend = runs
      .filter((r) => r.record.verdict && r.record.finishedAt)
      .slice(0, 20)
      .reverse()
      .map((r) => ({ runId: r.record.id, verdict: r.record.verdict!, finishedAt: r.record.finishedAt! }));
    return {
      id: i.id,
      name: i.name,
      baseUrl: baseUrlOf(i.profileText),
      lastRun: last ? { id: last.id, verdict: last.verdict, finishedAt: last.finishedAt } : undefined,
      trend,
    };
  }

  /** Newest first. */
  #runsOf(implementation: string): RunState[] {
    return [...this.#runs.values()].filter((r) => r.record.implementation === implementation).sort((a, b) => b.ordinal - a.ordinal);
  }

  // ---- runs

  runs = {
    start: async (implementationId: string, options: RunOptionsInput, secrets?: Record<string, string>): Promise<RunRecord> => {
      if (!this.#implementations.has(implementationId)) throw new Error(`no implementation ${implementationId}`);
      const record: RunRecord = { id: randomBytes(16).toString('base64url'), implementation: implementationId, options, status: 'queued', createdAt: now() };
      const state: RunState = { record, ordinal: this.#ordinal++, events: [], listeners: new Set(), checks: [] };
      this.#runs.set(record.id, state);
      if (secrets) this.secretsByRun.set(record.id, { ...secrets });
      this.#updateQueue(implementationId);
      return { ...record };
    },
    get: async (runId: string) => {
      const state = this.#runs.get(runId);
      return state && { ...state.record };
    },
    list: async (implementationId: string) => this.#runsOf(implementationId).map((r) => ({ ...r.record })),
    cancel: async (runId: string) => {
      const state = this.#runs.get(runId);
      if (!state) return undefined;
      if (state.record.status === 'queued' || state.record.status === 'running') this.#end(state, 'cancelled');
      return { ...state.record };
    },
    subscribe: async (runId: string, listener: (event: RunEvent) => void): Promise<Unsubscribe | undefined> => {
      const state = this.#runs.get(runId);
      if (!state) return undefined;
      for (const event of state.events) listener(event);
      if (state.record.status === 'finished' || state.record.status === 'cancelled') return () => {};
      state.listeners.add(listener);
      return () => state.listeners.delete(listener);
    },
    report: async (runId: string) => {
      const results = this.#results(runId);
      return results && renderHtml(results);
    },
    bundle: async (runId: string): Promise<BundleArchive | undefined> => {
      const results = this.#results(runId);
      if (!results) return undefined;
      const pack = tar.pack();
      pack.entry({ name: `ptas-run-${runId}/results.json` }, JSON.stringify(results, null, 2));
      pack.entry({ name: `ptas-run-${runId}/index.html` }, renderHtml(results));
      pack.finalize();
      return { filename: `ptas-run-${runId}.tar.gz`, stream: Readable.from(pack.pipe(createGzip())) };
    },
    compare: async (baselineRunId: string, runId: string): Promise<RunComparison | undefined> => {
      const before = this.#results(baselineRunId);
      const after = this.#results(runId);
      return before && after ? compareWithBaseline(before, after) : undefined;
    },
  };

  tokens = {
    verify: async (token: string) => this.#options.tokens[token],
    isLive: async (token: TokenRecord) => Object.values(this.#options.tokens).some((t) => t.id === token.id),
  };

  async doctor(profileText: string, secrets?: { env?: Record<string, string>; clientSecret?: string }): Promise<DoctorSummary> {
    this.doctored.push(profileText);
    this.doctoredSecrets.push(secrets);
    let profile: { baseUrl?: unknown };
    try {
      profile = parseJsonc(profileText) as typeof profile;
    } catch (error) {
      return { rows: [], brokenKeys: [], error: `The profile is not JSON with comments: ${(error as Error).message}` };
    }
    if (typeof profile?.baseUrl !== 'string') return { rows: [], brokenKeys: [], error: 'baseUrl is not set: the doctor has nothing to call.' };
    const rows: DoctorRowView[] = [
      { operation: 'token (client_credentials)', key: 'credentials', request: 'POST /v1/oauth/token', answer: '200 access_token «access_token#1f2e3d»', outcome: 'OK' },
      {
        operation: 'user details',
        key: 'users.getUser',
        request: 'GET /v1/users/{id}',
        answer: '404',
        outcome: 'PROBLEM',
        problem: `users.getUser answered 404 at ${profile.baseUrl}`,
        fix: 'check its method and path, and the value filled into {id} (sent GET /v1/users/{id})',
      },
      { operation: 'create offer', key: 'trading.createOffer', answer: 'not configured (trading.createOffer)', outcome: 'SKIPPED' },
    ];
    // What certification still needs is the real answer for the profile: it asks nothing of the target.
    return { rows, brokenKeys: ['users.getUser'], certificationNeeds: certificationNeeds(profile as Profile, await requiredCheckIds()) };
  }

  async presetProfileText(preset: Preset, baseUrl: string): Promise<string> {
    // As the real services: an address ptas init would refuse is a 422 naming it.
    const problem = baseUrlProblem(baseUrl);
    if (problem) throw new ServeError('invalid-request', `baseUrl ${baseUrl}: ${problem}`, { keyPath: '/baseUrl' });
    return renderPresetProfile(preset, { baseUrl, schemaRef: 'https://ptas.example/schemas/ptas-profile.bundle.json' });
  }

  async starterProfileText(): Promise<string> {
    return renderStarterProfile({ name: 'My implementation', baseUrl: 'https://api.example.com' }, { schemaRef: 'https://ptas.example/schemas/ptas-profile.bundle.json' });
  }

  // ---- the test's controls

  /** Emits the run's next check now (it must be running); returns when it was emitted (epoch ms, sub-millisecond). */
  emitCheck(runId: string): { emittedAt: number; checkId: string } {
    const state = this.#runs.get(runId);
    if (!state || state.record.status !== 'running') throw new Error(`run ${runId} is not running`);
    const check = this.#nextCheck(state);
    const emittedAt = performance.timeOrigin + performance.now();
    this.#emitCheck(state, check);
    return { emittedAt, checkId: check.id };
  }

  /** Ends a running run as its checks say. */
  finish(runId: string): void {
    const state = this.#runs.get(runId)!;
    this.#end(state, 'finished');
  }

  /** Stored runs without a live part: `perImplementation` finished runs for each of `implementations` new implementations. */
  async seed(implementations: number, perImplementation: number): Promise<void> {
    const verdicts = ['CONFORMANT', 'CONFORMANT', 'CONFORMANT', 'NOT CONFORMANT', 'CONFORMANT WITH WAIVERS', 'INCOMPLETE'] as const;
    for (let i = 0; i < implementations; i++) {
      const impl = await this.implementations.create({ name: `Implementation ${String(i + 1).padStart(3, '0')}`, profileText: `{\n  "baseUrl": "https://impl-${i + 1}.example.com/v1"\n}\n` });
      for (let r = 0; r < perImplementation; r++) {
        const finished = new Date(Date.UTC(2026, 10, 1) + (i * perImplementation + r) * 3600_000).toISOString();
        const record: RunRecord = {
          id: randomBytes(16).toString('base64url'),
          implementation: impl.id,
          options: { load: false },
          status: 'finished',
          createdAt: finished,
          startedAt: finished,
          finishedAt: finished,
          verdict: verdicts[(i + r) % verdicts.length],
          counts: { PASS: 40 },
        };
        this.#runs.set(record.id, { record, ordinal: this.#ordinal++, events: [{ type: 'end', run: record }], listeners: new Set(), checks: [] });
      }
    }
  }

  /** Stops every timer (the end of a test). */
  close(): void {
    for (const state of this.#runs.values()) clearTimeout(state.timer);
  }

  // ---- the run's life

  #emit(state: RunState, event: RunEvent): void {
    state.events.push(event);
    for (const listener of [...state.listeners]) listener(event);
  }

  /** Starts the next queued run of the implementation when none runs, and tells the queued ones their position. */
  #updateQueue(implementation: string): void {
    const runs = this.#runsOf(implementation).reverse();
    const running = runs.some((r) => r.record.status === 'running');
    const queued = runs.filter((r) => r.record.status === 'queued');
    queued.forEach((state, i) => {
      const position = i + 1;
      if (state.record.queuePosition !== position) {
        state.record.queuePosition = position;
        this.#emit(state, { type: 'status', run: { ...state.record } });
      }
    });
    const next = queued[0];
    if (!running && next && !next.timer) next.timer = setTimeout(() => this.#start(next), this.#options.startDelayMs);
  }

  #start(state: RunState): void {
    state.timer = undefined;
    if (state.record.status !== 'queued') return;
    delete state.record.queuePosition;
    state.record.status = 'running';
    state.record.startedAt = now();
    state.startedMs = performance.now();
    this.#emit(state, { type: 'status', run: { ...state.record } });
    this.#updateQueue(state.record.implementation);
    if (this.#options.autoProgress) this.#tick(state);
  }

  #tick(state: RunState): void {
    state.timer = setTimeout(() => {
      state.timer = undefined;
      if (state.record.status !== 'running') return;
      this.#emitCheck(state, this.#nextCheck(state));
      if (state.checks.length >= this.#options.checksPerRun(state.ordinal)) this.#end(state, 'finished');
      else this.#tick(state);
    }, this.#options.checkIntervalMs);
  }

  #nextCheck(state: RunState): CheckResult {
    const index = state.checks.length;
    const check = syntheticCheck(seededRandom(1000 + index), index, requirementsByArea());
    const verdict = this.#options.checkVerdict(state.ordinal, index);
    const decided = { ...check, verdict, reason: verdict === 'PASS' ? undefined : (check.reason ?? `${verdict} by the fake services`) };
    return { ...decided, ...this.#options.decorateCheck(decided, state.ordinal, index) };
  }

  #emitCheck(state: RunState, check: CheckResult): void {
    state.checks.push(check);
    const counts: Partial<Record<Verdict, number>> = {};
    for (const c of state.checks) counts[c.verdict] = (counts[c.verdict] ?? 0) + 1;
    state.record.counts = counts;
    this.#emit(state, {
      type: 'check',
      check: { id: check.id, title: check.title, target: check.target, verdict: check.verdict, reason: check.reason, durationMs: check.durationMs },
      counts: { ...counts },
      elapsedMs: Math.round(performance.now() - (state.startedMs ?? performance.now())),
    });
  }

  #end(state: RunState, status: 'finished' | 'cancelled'): void {
    clearTimeout(state.timer);
    state.timer = undefined;
    delete state.record.queuePosition;
    state.record.status = status;
    state.record.finishedAt = now();
    state.record.bundle = status === 'finished' || Boolean(state.record.startedAt);
    if (status === 'finished') {
      state.results = this.#buildResults(state);
      state.record.verdict = state.results.verdict;
    } else if (state.record.startedAt) {
      // As ptas serve does: a run cancelled while running writes a partial bundle of the checks that finished.
      state.results = { ...this.#buildResults(state), verdict: 'INCOMPLETE' };
      state.record.verdict = 'INCOMPLETE';
      state.record.note = 'cancelled while running: the bundle is partial';
    } else {
      state.record.verdict = 'INCOMPLETE';
      state.record.note = 'cancelled';
    }
    this.#emit(state, { type: 'end', run: { ...state.record } });
    state.listeners.clear();
    this.#updateQueue(state.record.implementation);
  }

  #buildResults(state: RunState): RunResults {
    const impl = this.#implementations.get(state.record.implementation);
    return buildResults({
      run: {
        target: baseUrlOf(impl?.profileText ?? '') ?? 'https://api.example.com',
        implementation: impl?.name,
        suiteVersion: '0.1.0',
        specVersion: catalogue().specVersion,
        profileHash: 'sha256:0123456789ab',
        startedAt: state.record.startedAt!,
        finishedAt: state.record.finishedAt!,
        durationMs: Date.parse(state.record.finishedAt!) - Date.parse(state.record.startedAt!),
        insecureTls: false,
      },
      checks: state.checks,
    });
  }

  #results(runId: string): RunResults | undefined {
    return this.#runs.get(runId)?.results;
  }
}
