// Runs the conformance checks: one Playwright Test process over every
// target, started with the run's settings (runner/settings.ts), returning
// what the collector gathered.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fromRoot } from '../src/paths.ts';
import type { CheckRunOutput } from './collector.ts';
import { handOffIn, writeRunSettings, type RunSettings } from './settings.ts';
import { writeSpecFiles } from './spec-files.ts';

export type { CheckRunOutput } from './collector.ts';

export interface CheckRunProcess {
  /** Receives the child's terminal output (default: ours). */
  output?: NodeJS.WritableStream;
  signal?: AbortSignal;
  /** Run Playwright and its workers at this nice value (0-19): lower priority than a measurement running beside them. */
  niceness?: number;
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
    const env = writeRunSettings(handOff, path.join(scratch, 'settings.json'));
    const exitCode = await runPlaywright(playwrightArgs(settings), env, process_);
    try {
      return JSON.parse(readFileSync(handOff.paths.results, 'utf8')) as CheckRunOutput;
    } catch {
      throw new Error(`the check runner exited with code ${exitCode} without writing results`);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function runPlaywright(args: string[], settingsEnv: Record<string, string>, { output, signal, niceness }: CheckRunProcess): Promise<number | null> {
  return new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: fromRoot(),
      env: { ...process.env, ...settingsEnv, FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
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
    child.once('exit', (code) => resolve(code));
  });
}
