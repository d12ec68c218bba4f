// Runs the conformance checks: one Playwright Test process over every target,
// returning what the ptas reporter collected.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fromRoot } from '../../src/paths.ts';
import type { ShardPart } from '../../src/results/model.ts';
import { LOCK_DIR_ENV } from '../../src/check/exclusive.ts';
import { TARGETS_FILE_ENV, writeTargetsFile, type RunTarget } from '../../src/check/run-targets.ts';
import { CHECK_RESULTS_ENV, type CheckRunOutput } from '../../reports/playwright-reporter.ts';
import { SPEC_DIR_ENV, writeSpecFiles } from './spec-files.ts';

export interface ConformanceOptions {
  targets: RunTarget[];
  /** Extra Playwright --grep over all targets (e.g. a requirement tag). */
  grep?: string;
  workers?: number;
  /** Per-check time limit in milliseconds. */
  checkTimeoutMs?: number;
  /** Print one line per finished check (default true). */
  progress?: boolean;
  /** Receives the child's terminal output (default: ours). */
  output?: NodeJS.WritableStream;
  signal?: AbortSignal;
  /** Run Playwright and its workers at this nice value (0-19): lower priority than a measurement running beside them. */
  niceness?: number;
  /** Run only this part of the checks (Playwright's --shard: deterministic for one suite version and target list). */
  shard?: ShardPart;
}

/** A webhook wait the profile declares from which each webhook check spends seconds, not milliseconds, waiting. */
const SLOW_WEBHOOK_WAIT_MS = 5_000;
const MAX_WAITING_WORKERS = 16;

/**
 * Webhook checks run side by side, one per webhook user the profile lists;
 * when the profile declares slow deliveries (a first retry or an answer hold
 * of seconds), each of them spends that long waiting, so a worker per user
 * (up to 16) is what lets them wait at once: on 2 cores, a full run under the
 * reference's slow-webhooks condition took 90 s with 4 workers, 43 s with 12.
 */
function waitingWebhookChecks(targets: readonly RunTarget[]): number {
  const slow = targets.filter(({ profile: { webhooks } }) => Math.max(webhooks?.retryDelaysMs?.[0] ?? 0, webhooks?.slowResponseMs ?? 0) >= SLOW_WEBHOOK_WAIT_MS);
  return Math.max(0, ...slow.map(({ profile: { webhooks } }) => 1 + (webhooks?.additionalUsers?.length ?? 0)));
}

/**
 * Checks mostly wait (webhook observation windows, offer expiry, polling), so
 * workers outnumber cores: twice the cores, 4 to 8, or more for slow declared
 * webhook waits (waitingWebhookChecks). On 2 cores a full run takes 8.5 s with
 * 3 or 4 workers and 10.9 s with 2 (bench/conformance-run).
 */
function defaultWorkers(targets: readonly RunTarget[]): number {
  const base = Math.min(8, Math.max(4, 2 * os.availableParallelism()));
  return Math.max(base, Math.min(MAX_WAITING_WORKERS, waitingWebhookChecks(targets)));
}

const playwrightCli = createRequire(import.meta.url).resolve('@playwright/test/cli');

export async function runConformance(options: ConformanceOptions): Promise<CheckRunOutput> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'ptas-checks-'));
  const resultsFile = path.join(scratch, 'checks.json');
  const targetsFile = path.join(scratch, 'targets.json');
  writeTargetsFile(targetsFile, options.targets);
  const specDir = path.join(scratch, 'specs');
  writeSpecFiles(specDir, options.targets.length);
  const args = [playwrightCli, 'test', '--config', fromRoot('playwright.config.ts')];
  if (options.grep) args.push('--grep', options.grep);
  if (options.shard) args.push(`--shard=${options.shard.index}/${options.shard.total}`);
  try {
    const exitCode = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(process.execPath, args, {
        cwd: fromRoot(),
        env: {
          ...process.env,
          [TARGETS_FILE_ENV]: targetsFile,
          [SPEC_DIR_ENV]: specDir,
          [CHECK_RESULTS_ENV]: resultsFile,
          PTAS_PLAYWRIGHT_OUTPUT: path.join(scratch, 'playwright'),
          PTAS_WORKERS: String(options.workers ?? defaultWorkers(options.targets)),
          PTAS_CHECK_TIMEOUT_MS: String(options.checkTimeoutMs ?? 60_000),
          PTAS_PROGRESS: options.progress === false ? '0' : '1',
          [LOCK_DIR_ENV]: path.join(scratch, 'locks'),
          FORCE_COLOR: '0',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      if (options.niceness) os.setPriority(child.pid!, options.niceness);
      // Interrupt, don't kill: on SIGINT Playwright stops the checks in flight
      // and its reporter still writes what finished, for a partial report.
      const interrupt = () => child.kill('SIGINT');
      if (options.signal?.aborted) interrupt();
      options.signal?.addEventListener('abort', interrupt, { once: true });
      child.once('exit', () => options.signal?.removeEventListener('abort', interrupt));
      const sink = options.output ?? process.stdout;
      child.stdout!.on('data', (chunk: Buffer) => sink.write(chunk));
      child.stderr!.on('data', (chunk: Buffer) => sink.write(chunk));
      child.once('error', reject);
      child.once('exit', (code) => resolve(code));
    });
    let output: CheckRunOutput;
    try {
      output = JSON.parse(readFileSync(resultsFile, 'utf8')) as CheckRunOutput;
    } catch {
      throw new Error(`the check runner exited with code ${exitCode} without writing results`);
    }
    return output;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
