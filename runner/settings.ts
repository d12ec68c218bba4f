// The settings of one check run, as one typed object. `ptas run` and the
// self-test resolve them once (every default is here and nowhere else), and
// the Playwright process they start — its config, its collector and every
// worker — reads them back from one file, validated, by one function. Not in
// the environment itself: a self-test's hundred profiles exceed the kernel's
// 128 KiB limit on one environment string, and the targets hold credentials,
// so the file is created 0600 in the run's 0700 scratch directory and removed
// with it.
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Ajv, type JSONSchemaType } from 'ajv';
import { ConfigError } from '../src/config/errors.ts';
import { markerKeyOf, useMarkerKey } from '../src/http/redact.ts';
import type { ShardPart } from '../src/results/model.ts';
import type { RunTarget } from './run-targets.ts';

export interface RunSettings {
  targets: RunTarget[];
  /** Playwright's worker processes. */
  workers: number;
  /** One check's time limit, before the waits its target's profile declares are added (runner/define.ts). */
  checkTimeoutMs: number;
  /** One line per finished check on the terminal. */
  progress: boolean;
  /** Extra Playwright --grep over all targets (e.g. a requirement tag). */
  grep?: string;
  /** Only this part of the checks (Playwright's --shard: deterministic for one suite version and target list). */
  shard?: ShardPart;
}

/** What the Playwright process reads: the settings, and where the run's hand-off files live (all inside its scratch directory). */
export interface RunHandOff extends RunSettings {
  paths: RunPaths;
  /** The key of the run's secret markers (src/http/redact.ts), so the child's markers are the orchestrator's. */
  markerKey: string;
}

export interface RunPaths {
  /** The check results the collector writes for the orchestrator (runner/collector.ts). */
  results: string;
  /** The generated spec files Playwright loads (runner/spec-files.ts). */
  specs: string;
  /** Playwright's own output directory. */
  playwrightOutput: string;
  /** The cross-worker locks (runner/exclusive.ts). */
  locks: string;
}

/**
 * What a caller may choose; resolveRunSettings gives the rest its default (the
 * only place that does). `tests`: how many tests the run will declare, when
 * the caller has counted them (the default number of workers depends on it).
 */
export type RunSettingsInput = Pick<RunSettings, 'targets'> & Partial<Pick<RunSettings, 'workers' | 'checkTimeoutMs' | 'progress' | 'grep' | 'shard'>> & { tests?: number };

export const DEFAULT_CHECK_TIMEOUT_MS = 60_000;

/** A webhook wait the profile declares from which each webhook check spends seconds, not milliseconds, waiting. */
const SLOW_WEBHOOK_WAIT_MS = 2_000;
const MAX_WAITING_WORKERS = 16;

/**
 * Webhook checks run side by side, one per webhook user the profile lists;
 * when the profile declares slow deliveries (a first retry or an answer hold
 * of seconds), each of them spends that long waiting, so a worker per user
 * (up to 16) is what lets them wait at once: on 2 cores, a full run under the
 * reference's slow-webhooks condition (with a 12 s schedule then) took 90 s
 * with 4 workers, 43 s with 12.
 */
function waitingWebhookChecks(targets: readonly RunTarget[]): number {
  const slow = targets.filter(({ profile: { webhooks } }) => Math.max(webhooks?.retryDelaysMs?.[0] ?? 0, webhooks?.slowResponseMs ?? 0) >= SLOW_WEBHOOK_WAIT_MS);
  return Math.max(0, ...slow.map(({ profile: { webhooks } }) => 1 + (webhooks?.additionalUsers?.length ?? 0)));
}

/**
 * A run's tests per worker, for a run narrowed to a few of them: a worker
 * costs about 1.7 CPU-s to start (Playwright, then every check file), and
 * Playwright starts one per test up to the count, each test waiting for its
 * own. Measured on 2 cores against the reference, without the load stage
 * (wall, CPU-s) with 1, 2 and 4 workers: the users area (33 tests) 5.6 s
 * 7.2, 6.6 s 9.6, 8.0 s 12.4; auth (23) 5.2 s 6.6, 6.2 s 9.2, 8.3 s 12.5;
 * trading (20) 11.4 s 6.8, 9.1 s 9.0, 9.2 s 12.0; webhooks (18) 12.0 s 8.0,
 * 9.0 s 9.2, 9.1 s 13.1; crypto-transfers (12) 5.3 s 6.7, 6.0 s 8.8, 8.0 s
 * 12.6.
 */
const TESTS_PER_WORKER = 12;

/**
 * Checks mostly wait (webhook observation windows, offer expiry, polling), so
 * workers outnumber cores: twice the cores, 4 to 8, or more for slow declared
 * webhook waits (waitingWebhookChecks). On 2 cores a full run takes 8.5 s with
 * 3 or 4 workers and 10.9 s with 2 (bench/conformance-run). A run of `tests`
 * tests, when the caller knows how many, gets no more than one worker per
 * TESTS_PER_WORKER of them (and at most one per test for the webhook waits).
 */
export function defaultWorkers(targets: readonly RunTarget[], tests?: number): number {
  const byCores = Math.min(8, Math.max(4, 2 * os.availableParallelism()));
  const byTests = tests === undefined ? byCores : Math.max(1, Math.ceil(tests / TESTS_PER_WORKER));
  const waiting = Math.min(MAX_WAITING_WORKERS, waitingWebhookChecks(targets), tests ?? MAX_WAITING_WORKERS);
  return Math.max(Math.min(byCores, byTests), waiting);
}

/** A count or a time limit chosen on the command line: a whole number of at least 1, or the run could not start. */
function positiveInteger(value: number | undefined, flag: string, example: string): number | undefined {
  if (value === undefined || (Number.isInteger(value) && value >= 1)) return value;
  throw new ConfigError(`${flag} must be a whole number of at least 1, e.g. ${flag} ${example}; got ${value}`);
}

/** Refuses choices no run can use, before anything starts (`ptas run` asks first thing). */
export function assertRunChoices(input: Omit<RunSettingsInput, 'targets'>): void {
  positiveInteger(input.workers, '--workers', '4');
  positiveInteger(input.checkTimeoutMs, '--check-timeout-ms', String(DEFAULT_CHECK_TIMEOUT_MS));
}

/** The run's settings: the caller's choices (checked) and every other setting's default. */
export function resolveRunSettings(input: RunSettingsInput): RunSettings {
  assertRunChoices(input);
  return {
    targets: input.targets,
    workers: input.workers ?? defaultWorkers(input.targets, input.tests),
    checkTimeoutMs: input.checkTimeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS,
    progress: input.progress ?? true,
    ...(input.grep ? { grep: input.grep } : {}),
    ...(input.shard ? { shard: input.shard } : {}),
  };
}

/** The settings with the hand-off paths of a run whose scratch directory is `scratch`. */
export function handOffIn(settings: RunSettings, scratch: string): RunHandOff {
  return {
    ...settings,
    markerKey: markerKeyOf(),
    paths: {
      results: path.join(scratch, 'checks.json'),
      specs: path.join(scratch, 'specs'),
      playwrightOutput: path.join(scratch, 'playwright'),
      locks: path.join(scratch, 'locks'),
    },
  };
}

/** The one environment variable of the hand-off: it names the settings file. */
export const RUN_SETTINGS_ENV = 'PTAS_RUN_SETTINGS';

/** Writes the hand-off for the child process and returns the environment that names it to it. */
export function writeRunSettings(settings: RunHandOff, file: string): Record<string, string> {
  writeFileSync(file, JSON.stringify(settings), { mode: 0o600 });
  return { [RUN_SETTINGS_ENV]: file };
}

// The profile inside each target was validated when it was loaded (src/config/); here the settings' own shape is.
const SCHEMA: JSONSchemaType<RunHandOff> = {
  type: 'object',
  required: ['targets', 'workers', 'checkTimeoutMs', 'progress', 'paths', 'markerKey'],
  additionalProperties: false,
  properties: {
    targets: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'profile'],
        additionalProperties: false,
        properties: { name: { type: 'string', minLength: 1 }, profile: { type: 'object', required: [] }, grep: { type: 'string', nullable: true } },
      },
    },
    workers: { type: 'integer', minimum: 1 },
    checkTimeoutMs: { type: 'integer', minimum: 1 },
    progress: { type: 'boolean' },
    grep: { type: 'string', nullable: true },
    shard: {
      type: 'object',
      nullable: true,
      required: ['index', 'total'],
      additionalProperties: false,
      properties: { index: { type: 'integer', minimum: 1 }, total: { type: 'integer', minimum: 1 } },
    },
    markerKey: { type: 'string', minLength: 1 },
    paths: {
      type: 'object',
      required: ['results', 'specs', 'playwrightOutput', 'locks'],
      additionalProperties: false,
      properties: { results: { type: 'string' }, specs: { type: 'string' }, playwrightOutput: { type: 'string' }, locks: { type: 'string' } },
    },
  },
} as unknown as JSONSchemaType<RunHandOff>;

let validate: ReturnType<Ajv['compile']> | undefined;

/** Checks what a settings file holds; a wrong one names the key. */
export function parseRunSettings(text: string, source: string): RunHandOff {
  validate ??= new Ajv({ allErrors: true, strict: true }).compile(SCHEMA);
  const value: unknown = JSON.parse(text);
  if (!validate(value)) {
    const problems = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ');
    throw new Error(`the run settings in ${source} are not valid: ${problems}`);
  }
  return value as RunHandOff;
}

let read: RunHandOff | undefined;

/**
 * The run's settings in the Playwright process and its workers, read once per
 * process. Without them (Playwright started by hand, not by `ptas run`) there
 * is no run to serve: a clear error, not defaults that would run nothing.
 */
export function readRunSettings(env: NodeJS.ProcessEnv = process.env): RunHandOff {
  if (read) return read;
  const file = env[RUN_SETTINGS_ENV];
  if (!file) throw new Error(`${RUN_SETTINGS_ENV} names no run settings: run the checks through \`ptas run\`, not \`playwright test\``);
  read = parseRunSettings(readFileSync(file, 'utf8'), file);
  // Before this process redacts anything: its markers are the run's.
  useMarkerKey(read.markerKey);
  return read;
}
