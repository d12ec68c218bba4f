// The runs: asked for, queued (queue.ts), run one by one in-process
// (run-execution.ts), cancelled, and read back: their record, their events
// (events.ts), their bundle as a folder or an archive (archive.ts), and the
// comparison of two runs (reports/baseline.ts, what `ptas report --baseline`
// computes). A run's secrets (its resolved profile) live in memory only, for
// as long as it waits or runs; a run the server was running or holding when
// it stopped is finished INCOMPLETE at the next start, its partial bundle
// kept.
//
// The queue is bounded: a token may keep maxQueuedRunsPerToken runs waiting,
// the server maxQueuedRuns; one more is refused (429 queue-full, Retry-After)
// before anything is stored. A run's record is written once per change of its
// status (queued, running, finished or cancelled), never because the queue
// moved: a waiting run's position is the queue's (in memory), added to the
// record whenever it is read, and each move is notified to whoever follows
// the run live (events.ts notify), not stored.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Profile } from '../../src/config/profile.ts';
import { PtasError } from '../../src/errors.ts';
import { Redactor } from '../../src/http/redact.ts';
import type { RunResults } from '../../src/results/model.ts';
import { loadWaivers } from '../../src/results/waivers-file.ts';
import { compareWithBaseline, type BaselineDiff } from '../../reports/baseline.ts';
import { bundleArchive } from './archive.ts';
import type { RunEvent, RunOptionsInput, RunRecord } from './contract.ts';
import { notFound, ServeError } from './errors.ts';
import { logValue } from './log.ts';
import { recordReview, reviewItems, type ReviewInput, type ReviewItem } from './reviews.ts';
import type { ReviewDecision } from '../../src/results/reviews.ts';
import type { NumberedRunEvent, RunEvents } from './events.ts';
import type { ProfilePolicy } from './profile-policy.ts';
import { runProfileWithinPolicy, type RunSecrets } from './profile-text.ts';
import type { RunQueue } from './queue.ts';
import { executeRun, type ExecutedRun } from './run-execution.ts';
import { joinAttempt, planServeRerun, type ServeRerun } from './rerun.ts';
import { writeJsonAtomic } from './store/atomic.ts';
import type { ImplementationStore } from './store/implementations.ts';
import { REFERENCE_ID, type StoreLayout } from './store/layout.ts';
import type { RunStore } from './store/runs.ts';

export interface StartRunInput {
  /** An implementation id, or "reference" for the bundled reference. */
  implementation: string;
  options?: RunOptionsInput;
  /** For this run only, kept in memory: never stored, never shown. */
  secrets?: RunSecrets;
  /** The name of the token that asks (the API's bearer token, the console session's): recorded, and counted against its bound on waiting runs. */
  requestedBy?: string;
}

export interface RunArchive {
  stream: Readable;
  /** "ptas-run-<id>.tar.gz": extracts to the folder ptas-run-<id>/. */
  filename: string;
}

export interface RunServiceDeps {
  layout: StoreLayout;
  store: RunStore;
  implementations: ImplementationStore;
  events: RunEvents;
  queue: RunQueue;
  /** What a stored profile may read and reach (the operator's flags). */
  policy: ProfilePolicy;
  /** The server's log, one line per call. */
  log: (line: string) => void;
  /** Runs that may wait at once, over all tokens; default DEFAULT_MAX_QUEUED_RUNS. */
  maxQueuedRuns?: number;
  /** Runs that may wait at once for one token; default DEFAULT_MAX_QUEUED_RUNS_PER_TOKEN. */
  maxQueuedRunsPerToken?: number;
}

interface Waiting {
  profile: Profile;
  secrets: string[];
  /** When the run is a re-run: what it runs, and the attempts it is joined to. */
  rerun?: ServeRerun;
}

interface Active {
  controller: AbortController;
  done: Promise<void>;
  /** Why it is being stopped: a cancel, or the server stopping. */
  stopping?: 'cancel' | 'shutdown';
}

export const NOTES = {
  cancelledWhileQueued: 'cancelled before it started',
  cancelledWhileRunning: 'cancelled while running: the bundle is partial',
  serverStoppedRunning: 'the server stopped during the run',
  serverStoppedQueued: 'the server stopped before the run started',
} as const;

/** A nonce travels in a request header (ptas-nonce): visible ASCII, at most 200 characters (bin/bundle-args.ts nonceArgument). */
const NONCE = /^[\x21-\x7e]{1,200}$/;

import { DEFAULT_MAX_QUEUED_RUNS, DEFAULT_MAX_QUEUED_RUNS_PER_TOKEN } from './defaults.ts';
/** When a refused run may be asked for again: a run takes minutes, so about when one may have started. */
const QUEUE_FULL_RETRY_AFTER_S = 60;

/** How long a cancel waits for the run to stop before it answers with the run still stopping. */
export const CANCEL_WAIT_MS = 15_000;
const now = () => new Date().toISOString();

export class RunService {
  private readonly waiting = new Map<string, Waiting>();
  private readonly active = new Map<string, Active>();
  /** Each waiting run's position as last notified, so only moves are notified. */
  private readonly notifiedPositions = new Map<string, number>();
  private readonly maxQueuedRuns: number;
  private readonly maxQueuedRunsPerToken: number;
  private closed = false;

  constructor(private readonly deps: RunServiceDeps) {
    this.maxQueuedRuns = wholeAtLeastOne(deps.maxQueuedRuns ?? DEFAULT_MAX_QUEUED_RUNS, 'maxQueuedRuns');
    this.maxQueuedRunsPerToken = wholeAtLeastOne(deps.maxQueuedRunsPerToken ?? DEFAULT_MAX_QUEUED_RUNS_PER_TOKEN, 'maxQueuedRunsPerToken');
  }

  /** At start-up: a run the last server left queued or running is finished INCOMPLETE, whatever bundle it wrote kept. */
  recover(): RunRecord[] {
    const recovered: RunRecord[] = [];
    for (const run of this.deps.store.list()) {
      if (run.status !== 'queued' && run.status !== 'running') continue;
      // A bundle with its manifest was written whole (the manifest is written last): its verdict stands.
      const results = this.results(run.id);
      const whole = results && existsSync(path.join(this.deps.layout.bundleDir(run.id), 'manifest.json'));
      const { queuePosition: _position, ...rest } = run;
      // Without results (a server killed mid-run writes none), the counts its live view last showed: those of its kept check events.
      const counts = results?.counts ?? this.lastCheckCounts(run.id);
      const record: RunRecord = {
        ...rest,
        status: 'finished',
        finishedAt: now(),
        verdict: whole ? results.verdict : 'INCOMPLETE',
        bundle: Boolean(whole),
        ...(counts ? { counts } : {}),
        ...(whole && results.certification ? { certification: results.certification } : {}),
        note: run.status === 'running' ? NOTES.serverStoppedRunning : NOTES.serverStoppedQueued,
      };
      this.save(record);
      this.publish(record.id, { type: 'status', run: record });
      this.publish(record.id, { type: 'end', run: record });
      this.deps.log(`run ${record.id} of ${logValue(record.implementation)} was ${run.status} when the server stopped: finished ${record.verdict}`);
      recovered.push(record);
    }
    return recovered;
  }

  /** The counts of a run's last check event, if it has one. */
  private lastCheckCounts(runId: string): RunRecord['counts'] {
    const events = this.deps.store.readEvents(runId);
    for (let i = events.length - 1; i >= 0; i--) {
      const event = events[i]!;
      if (event.type === 'check') return event.counts;
    }
    return undefined;
  }

  /** Refused before it is queued: options it cannot use, a profile it cannot resolve, a target the policy refuses. */
  async start(input: StartRunInput): Promise<RunRecord> {
    if (this.closed) throw new ServeError('conflict', 'the server is stopping: no new run starts');
    const asked = input.options ?? {};
    if (asked.rerunOf !== undefined) return this.startRerun(input, asked);
    return this.enqueue(input, asked, await this.checkedProfile(input, asked));
  }

  /** A re-run of an earlier run (app/serve/rerun.ts): planned now, so that what it cannot do is refused before it waits. */
  private async startRerun(input: StartRunInput, asked: RunOptionsInput): Promise<RunRecord> {
    this.assertRoomInQueue(input.requestedBy);
    const waiting = await this.profileFor(input);
    const implementationUpdatedAt = input.implementation === REFERENCE_ID ? undefined : this.deps.implementations.get(input.implementation)?.updatedAt;
    const { options, rerun } = await planServeRerun(this.deps, { implementation: input.implementation, options: asked, ...(implementationUpdatedAt ? { implementationUpdatedAt } : {}) });
    return this.enqueue(input, options, { ...waiting, rerun });
  }

  /** The options' own checks, then the profile resolved within the policy. */
  private async checkedProfile(input: StartRunInput, options: RunOptionsInput): Promise<Waiting> {
    if (options.grep !== undefined) {
      try {
        new RegExp(options.grep);
      } catch (error) {
        throw new ServeError('invalid-request', `options.grep is not a regular expression: ${(error as Error).message}`, { keyPath: '/options/grep' });
      }
    }
    if (options.nonce !== undefined && !NONCE.test(options.nonce)) {
      // Both faces start runs here: the console's form as the API's schema, and as `ptas run --nonce` and `ptas verify --nonce` take it.
      throw new ServeError('invalid-request', `the nonce must be 1 to 200 visible ASCII characters, no spaces (as ptas run --nonce and ptas verify --nonce take it); got ${JSON.stringify(options.nonce.slice(0, 200))}`, {
        keyPath: '/options/nonce',
      });
    }
    this.assertRoomInQueue(input.requestedBy);
    return this.profileFor(input);
  }

  private enqueue(input: StartRunInput, options: RunOptionsInput, waiting: Waiting): RunRecord {
    if (this.closed) throw new ServeError('conflict', 'the server is stopping: no new run starts');
    // Again: others may have been queued while this run's targets resolved.
    this.assertRoomInQueue(input.requestedBy);
    const id = randomBytes(16).toString('base64url');
    if (options.waivers !== undefined) this.writeWaivers(id, options.waivers);
    const record: RunRecord = { id, implementation: input.implementation, options, status: 'queued', createdAt: now(), ...(input.requestedBy !== undefined ? { requestedBy: input.requestedBy } : {}) };
    this.save(record);
    this.waiting.set(id, waiting);
    this.deps.queue.enqueue({ runId: id, implementation: input.implementation, ...(input.requestedBy !== undefined ? { requestedBy: input.requestedBy } : {}) });
    this.deps.events.publish(id, { type: 'status', run: record });
    const asked = options.rerunOf !== undefined ? ` (a re-run of ${options.rerunOf})` : options.grep !== undefined ? ` (grep ${logValue(options.grep)})` : '';
    this.deps.log(`run ${id} of ${logValue(input.implementation)} asked for${asked}`);
    this.pump();
    return this.get(id)!;
  }

  /**
   * Refuses a run that would wait beyond the token's bound or the server's.
   * Only waiting runs count: the running ones are bounded by
   * maxConcurrentRuns, the finished ones cost nothing but disk. A run asked
   * for without a token's name (a caller of the services in-process) meets
   * the server's bound only.
   */
  private assertRoomInQueue(requestedBy: string | undefined): void {
    const queue = this.deps.queue;
    const waitingForToken = requestedBy === undefined ? 0 : queue.waitingCount(requestedBy);
    if (requestedBy !== undefined && waitingForToken >= this.maxQueuedRunsPerToken) {
      throw new ServeError(
        'queue-full',
        `token ${JSON.stringify(requestedBy)} has ${waitingForToken} runs waiting, the most one token may keep waiting (ptas serve --max-queued-runs-per-token ${this.maxQueuedRunsPerToken}): ask again once one has started, or cancel one`,
        { scope: 'token', limit: this.maxQueuedRunsPerToken, waiting: waitingForToken },
        QUEUE_FULL_RETRY_AFTER_S,
      );
    }
    const waitingInAll = queue.waitingCount();
    if (waitingInAll >= this.maxQueuedRuns) {
      throw new ServeError(
        'queue-full',
        `${waitingInAll} runs are waiting, the most this server keeps waiting (ptas serve --max-queued-runs ${this.maxQueuedRuns}): ask again once one has started`,
        { scope: 'server', limit: this.maxQueuedRuns, waiting: waitingInAll },
        QUEUE_FULL_RETRY_AFTER_S,
      );
    }
  }

  private async profileFor(input: StartRunInput): Promise<Waiting> {
    if (input.implementation === REFERENCE_ID) {
      if (input.secrets && Object.keys(input.secrets).length) {
        throw new ServeError('invalid-request', 'the bundled reference has its own credentials: give secrets only with a run of a stored implementation', { keyPath: '/secrets' });
      }
      return { profile: {}, secrets: [] };
    }
    const implementation = this.deps.implementations.get(input.implementation);
    if (!implementation) {
      throw new ServeError('unknown-implementation', `no implementation ${input.implementation}: store its profile first (PUT /api/implementations/${input.implementation}), or run "reference"`, {
        keyPath: '/implementation',
      });
    }
    return runProfileWithinPolicy(implementation.profileText, this.deps.policy, input.secrets);
  }

  /** The waiver file ptasRun reads, beside the bundle; one it cannot use refuses the run before it is queued. */
  private writeWaivers(runId: string, waivers: unknown): void {
    const file = this.deps.layout.waiversFile(runId);
    writeJsonAtomic(file, waivers);
    try {
      loadWaivers(file);
    } catch (error) {
      rmSync(this.deps.layout.runDir(runId), { recursive: true, force: true });
      if (!(error instanceof PtasError)) throw error;
      throw new ServeError('invalid-waivers', error.message.replaceAll(file, 'options.waivers'), { keyPath: '/options/waivers' });
    }
  }

  /** The run as read: its stored record, and its queue position while it waits. */
  get(runId: string): RunRecord | undefined {
    const record = this.deps.store.get(runId);
    return record && this.withPosition(record, record.status === 'queued' ? this.deps.queue.positions() : undefined);
  }

  list(filter: { implementation?: string } = {}): RunRecord[] {
    const records = this.deps.store.list(filter);
    const positions = records.some((r) => r.status === 'queued') ? this.deps.queue.positions() : undefined;
    return records.map((record) => this.withPosition(record, positions));
  }

  /** A queued record with the queue's position for it (a run queued before a restart, never started, has none). */
  private withPosition(record: RunRecord, positions: Map<string, number> | undefined): RunRecord {
    if (record.status !== 'queued') return record;
    const { queuePosition: _stored, ...rest } = record;
    const position = positions?.get(record.id);
    return position === undefined ? rest : { ...rest, queuePosition: position };
  }

  /** The record as stored (no position): what a change of status is written over. */
  private require(runId: string): RunRecord {
    const record = this.deps.store.get(runId);
    if (!record) throw notFound(`run ${runId}`);
    return record;
  }

  private save(record: RunRecord): void {
    this.deps.store.save(record);
  }

  private publish(runId: string, event: RunEvent): void {
    this.deps.events.publish(runId, event);
  }

  /**
   * Starts what may start, and notifies whoever follows a waiting run of its
   * new position: nothing is written (a position is read from the queue), and
   * a run nobody follows costs a map lookup.
   */
  private pump(): void {
    if (this.closed) return;
    for (const run of this.deps.queue.startable()) this.launch(run.runId);
    const positions = this.deps.queue.positions();
    for (const runId of this.notifiedPositions.keys()) if (!positions.has(runId)) this.notifiedPositions.delete(runId);
    for (const [runId, position] of positions) {
      if (this.notifiedPositions.get(runId) === position) continue;
      this.notifiedPositions.set(runId, position);
      this.deps.events.notify(runId, () => ({ type: 'status', run: { ...this.require(runId), queuePosition: position }, positionOnly: true }));
    }
  }

  private launch(runId: string): void {
    const waiting = this.waiting.get(runId)!;
    this.waiting.delete(runId);
    const record: RunRecord = { ...this.require(runId), status: 'running', startedAt: now() };
    this.save(record);
    this.publish(runId, { type: 'status', run: record });
    this.deps.log(`run ${runId} of ${logValue(record.implementation)} started`);
    const controller = new AbortController();
    const waiversFile = record.options.waivers !== undefined ? this.deps.layout.waiversFile(runId) : undefined;
    const active: Active = { controller, done: Promise.resolve() };
    const execute = async (): Promise<ExecutedRun> => {
      // Checked again as the run starts: it may have waited, and a name may resolve elsewhere by now.
      try {
        await this.deps.policy.targets.check(waiting.profile);
      } catch (error) {
        if (error instanceof ServeError) return { verdict: 'INCOMPLETE', counts: {}, bundle: false, note: `not started: ${error.message}` };
        throw error;
      }
      const { rerun } = waiting;
      const bundleDir = this.deps.layout.bundleDir(runId);
      const executed = await executeRun({
        profile: waiting.profile,
        options: rerun ? { ...record.options, grep: rerun.plan.grep, load: rerun.load } : record.options,
        ...(rerun && !rerun.plan.checkIds.length ? { conformance: false } : {}),
        bundleDir: rerun ? this.deps.layout.attemptDir(runId) : bundleDir,
        waiversFile,
        signal: controller.signal,
        redactor: new Redactor(waiting.secrets.map((value) => [value, 'secret'] as [string, string])),
        emit: (event) => this.publish(runId, event),
        startedAt: performance.now(),
      });
      return rerun ? joinAttempt(rerun, this.deps.layout.attemptDir(runId), bundleDir, executed) : executed;
    };
    active.done = execute()
      .catch((error: unknown): ExecutedRun => ({ verdict: 'INCOMPLETE', counts: {}, bundle: false, note: `the run failed inside ptas: ${error instanceof Error ? error.message : String(error)}` }))
      .then((executed) => this.finish(runId, active, executed));
    this.active.set(runId, active);
  }

  private finish(runId: string, active: Active, executed: ExecutedRun): void {
    const note =
      active.stopping === 'cancel' ? NOTES.cancelledWhileRunning : active.stopping === 'shutdown' ? NOTES.serverStoppedRunning : executed.note;
    const record: RunRecord = {
      ...this.require(runId),
      status: active.stopping === 'cancel' ? 'cancelled' : 'finished',
      finishedAt: now(),
      verdict: executed.verdict,
      counts: executed.counts,
      bundle: executed.bundle,
      ...(executed.certification ? { certification: executed.certification } : {}),
      ...(note ? { note } : {}),
    };
    this.save(record);
    this.publish(runId, { type: 'status', run: record });
    this.publish(runId, { type: 'end', run: record });
    this.deps.log(`run ${runId} of ${logValue(record.implementation)} ${record.status}: ${record.verdict}${note ? ` (note ${logValue(note)})` : ''}`);
    this.active.delete(runId);
    this.deps.queue.finished(runId);
    this.pump();
  }

  /** A waiting run is taken out; a running one stops (its partial bundle written) before this answers, or within CANCEL_WAIT_MS. */
  async cancel(runId: string): Promise<RunRecord> {
    const record = this.require(runId);
    if (record.status === 'finished' || record.status === 'cancelled') throw new ServeError('conflict', `run ${runId} has ended (${record.status}): there is nothing to cancel`);
    if (record.status === 'queued' && this.deps.queue.remove(runId)) {
      this.waiting.delete(runId);
      const cancelled: RunRecord = { ...record, status: 'cancelled', finishedAt: now(), note: NOTES.cancelledWhileQueued, bundle: false };
      this.save(cancelled);
      this.publish(runId, { type: 'status', run: cancelled });
      this.publish(runId, { type: 'end', run: cancelled });
      this.deps.log(`run ${runId} of ${logValue(record.implementation)} cancelled before it started`);
      this.pump();
      return cancelled;
    }
    const active = this.active.get(runId);
    if (active) {
      active.stopping ??= 'cancel';
      active.controller.abort();
      await Promise.race([active.done, new Promise((resolve) => setTimeout(resolve, CANCEL_WAIT_MS).unref())]);
    }
    return this.get(runId)!;
  }

  /** The run's events; a stored status of a run that still waits is read with its position now. */
  events(runId: string, options: { after?: number; signal?: AbortSignal } = {}): AsyncGenerator<NumberedRunEvent> {
    this.require(runId);
    return this.withPositions(runId, this.deps.events.subscribe(runId, options));
  }

  private async *withPositions(runId: string, events: AsyncGenerator<NumberedRunEvent>): AsyncGenerator<NumberedRunEvent> {
    try {
      for await (const numbered of events) {
        const { event } = numbered;
        if (event.type !== 'status' || event.positionOnly || event.run.status !== 'queued') yield numbered;
        else yield { ...numbered, event: { ...event, run: this.withPosition(event.run, this.deps.queue.positions()) } };
      }
    } finally {
      await events.return(undefined);
    }
  }

  /** The run's bundle folder, once ptasRun has written it (a cancelled run's partial one too). */
  bundleDir(runId: string): string | undefined {
    this.require(runId);
    const dir = this.deps.layout.bundleDir(runId);
    return existsSync(path.join(dir, 'manifest.json')) ? dir : undefined;
  }

  private readyBundle(runId: string): string {
    const dir = this.bundleDir(runId);
    if (!dir) throw new ServeError('not-ready', `run ${runId} has no bundle${this.get(runId)!.status === 'finished' || this.get(runId)!.status === 'cancelled' ? ' (it ended before writing one)' : ' yet: it is written when the run ends'}`);
    return dir;
  }

  /** The report page of the run's bundle. */
  reportFile(runId: string): string {
    return path.join(this.readyBundle(runId), 'index.html');
  }

  /** The run's REVIEW checks and their decisions (reviews.ts). */
  reviews(runId: string): ReviewItem[] {
    return reviewItems(this.readyBundle(runId));
  }

  /** A reviewer's decision on one of the run's REVIEW checks, kept in its bundle; once the run has ended. */
  review(runId: string, input: ReviewInput, by: string): ReviewDecision {
    const status = this.get(runId)?.status;
    if (status !== 'finished' && status !== 'cancelled') throw new ServeError('not-ready', `run ${runId} is ${status}: its checks are reviewed once it has ended`);
    return recordReview(this.readyBundle(runId), input, by);
  }

  archive(runId: string): RunArchive {
    const dir = this.readyBundle(runId);
    return { stream: bundleArchive(dir, `ptas-run-${runId}`), filename: `ptas-run-${runId}.tar.gz` };
  }

  private results(runId: string): RunResults | undefined {
    try {
      return JSON.parse(readFileSync(path.join(this.deps.layout.bundleDir(runId), 'results.json'), 'utf8')) as RunResults;
    } catch {
      return undefined;
    }
  }

  /** Run `runId` compared with the baseline run `baselineId`, as `ptas report --baseline` compares them. */
  compare(runId: string, baselineId: string): BaselineDiff {
    this.readyBundle(runId);
    this.readyBundle(baselineId);
    const current = this.results(runId);
    const baseline = this.results(baselineId);
    if (!current || !baseline) throw new ServeError('not-ready', `run ${current ? baselineId : runId} has no results.json in its bundle`);
    return compareWithBaseline(baseline, current);
  }

  /** Stops every run (each finishes INCOMPLETE, its partial bundle written) and finishes the waiting ones; no run starts after. */
  async close(): Promise<void> {
    this.closed = true;
    for (const { runId } of this.deps.queue.waitingRuns()) {
      this.deps.queue.remove(runId);
      this.waiting.delete(runId);
      const record: RunRecord = { ...this.require(runId), status: 'finished', finishedAt: now(), verdict: 'INCOMPLETE', note: NOTES.serverStoppedQueued };
      this.save(record);
      this.publish(runId, { type: 'status', run: record });
      this.publish(runId, { type: 'end', run: record });
    }
    const stopping = [...this.active.values()].map((active) => {
      active.stopping ??= 'shutdown';
      active.controller.abort();
      return active.done;
    });
    await Promise.race([Promise.all(stopping), new Promise((resolve) => setTimeout(resolve, CANCEL_WAIT_MS).unref())]);
  }
}

function wholeAtLeastOne(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number of at least 1; got ${value}`);
  return value;
}
