// Runs the conformance checks: one Playwright Test process over every
// target, started with the run's settings (runner/settings.ts), returning
// what the collector gathered.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { fromRoot } from '../src/paths.ts';
import { CHECK_EVENTS_FD, checkEventReader, type OnCheck } from './check-events.ts';
import type { CheckRunOutput } from './collector.ts';
import { handOffIn, writeRunSettings, type RunSettings } from './settings.ts';
import { writeSpecFiles } from './spec-files.ts';
import { workerStartGateEnv } from './worker-start.ts';

export type { CheckRunOutput } from './collector.ts';

export interface CheckRunProcess {
  /** Receives the child's terminal output (default: ours). */
  output?: NodeJS.WritableStream;
  signal?: AbortSignal;
  /** Run Playwright and its workers at this nice value (0-19): lower priority than a measurement running beside them. */
  niceness?: number;
  /** Each finished check as it finishes, when the settings ask for events (runner/check-events.ts). */
  onCheck?: OnCheck;
}

const playwrightCli = createRequire(import.meta.url).resolve('@playwright/test/cli');

function playwrightArgs(settings: RunSettings): string[] {
  const args = [playwrightCli, 'test', '--config', fromRoot('runner', 'playwright.config.ts')];
  if (settings.grep) args.push('--grep', settings.grep);
  if (settings.shard) args.push(`--shard=${settings.shard.index}/${settings.shard.total}`);
  return args;
}

/** Runs the checks with these settings (resolved by runner/settings.ts resolveRunSettings). */
export async function runChecks(settings: RunSettings, process_: CheckRunProcess = {}): Promise<CheckRunOutput> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'ptas-checks-'));
  try {
    const handOff = handOffIn(settings, scratch);
    writeSpecFiles(handOff.paths.specs, settings.targets.length);
    const env = { ...writeRunSettings(handOff, path.join(scratch, 'settings.json')), ...workerStartGateEnv(scratch) };
    // Stopped before Playwright started: nothing ran, and that is an interrupted run, not a broken one.
    if (process_.signal?.aborted) return interruptedBeforeStart();
    const exitCode = await runPlaywright(playwrightArgs(settings), env, { ...process_, onCheck: settings.events ? process_.onCheck : undefined });
    try {
      return JSON.parse(readFileSync(handOff.paths.results, 'utf8')) as CheckRunOutput;
    } catch {
      // Interrupted while Playwright was still starting, before its collector could write anything.
      if (process_.signal?.aborted) return interruptedBeforeStart();
      throw new Error(`the check runner exited with code ${exitCode} without writing results`);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function interruptedBeforeStart(): CheckRunOutput {
  return { checks: [], errors: [], status: 'interrupted', startedAt: new Date().toISOString(), durationMs: 0 };
}

/** How long to wait, after Playwright exits, for the last check lines still in the event pipe. */
const EVENTS_DRAIN_MS = 2_000;

function runPlaywright(args: string[], settingsEnv: Record<string, string>, { output, signal, niceness, onCheck }: CheckRunProcess): Promise<number | null> {
  return new Promise<number | null>((resolve, reject) => {
    // It and its workers end when this process is gone (runner/exit-with-parent.mjs); its workers start a core's worth at a time (runner/worker-start-gate.mjs).
    const preloads = ['exit-with-parent.mjs', 'worker-start-gate.mjs'].flatMap((file) => ['--import', pathToFileURL(fromRoot('runner', file)).href]);
    const child = spawn(process.execPath, [...preloads, ...args], {
      cwd: fromRoot(),
      env: { ...process.env, ...settingsEnv, FORCE_COLOR: '0' },
      // With a caller for the checks' events, a pipe at the collector's descriptor (runner/check-events.ts).
      stdio: onCheck ? ['ignore', 'pipe', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe'],
    });
    const events = onCheck ? child.stdio[CHECK_EVENTS_FD] : null;
    // The pipe ends when every process holding it has let go: Playwright, and the workers it started.
    const drained = new Promise<void>((done) => {
      if (!events) return done();
      events.on('data', checkEventReader(onCheck!));
      events.once('end', done);
      events.once('error', () => done());
    });
    if (niceness) os.setPriority(child.pid!, niceness);
    // Interrupt, don't kill: on SIGINT Playwright stops the checks in flight
    // and its collector still writes what finished, for a partial report.
    const interrupt = () => child.kill('SIGINT');
    if (signal?.aborted) interrupt();
    signal?.addEventListener('abort', interrupt, { once: true });
    child.once('exit', () => signal?.removeEventListener('abort', interrupt));
    const sink = output ?? process.stdout;
    child.stdout!.on('data', (chunk: Buffer) => sink.write(chunk));
    child.stderr!.on('data', (chunk: Buffer) => sink.write(chunk));
    child.once('error', reject);
    child.once('exit', (code) => {
      // The last lines can still be in the pipe when the process is gone; a worker left behind must not hold the run.
      const timer = setTimeout(() => {
        events?.destroy();
        resolve(code);
      }, EVENTS_DRAIN_MS);
      void drained.then(() => {
        clearTimeout(timer);
        resolve(code);
      });
    });
  });
}
