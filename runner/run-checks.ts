// Runs the conformance checks: one Playwright Test process over every
// target, started with the run's settings (runner/settings.ts). What the
// process prints (the collector's line per check) becomes the run's log
// events, and the checks and problems on its event channel the run's check
// and problem events (src/run-events/events.ts); what it returns is what
// those events told (src/run-events/heard-results.ts), with how the
// Playwright run ended.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { fromRoot } from '../src/paths.ts';
import { fanOut, ignoreEvents, type RunEventSink } from '../src/run-events/events.ts';
import { heardResults } from '../src/run-events/heard-results.ts';
import { CHECK_EVENTS_FD, checkEventReader } from './check-events.ts';
import { lineReader } from './lines.ts';
import type { CheckRunEnd, CheckRunOutput } from './collector.ts';
import { handOffIn, writeRunSettings, type RunSettings } from './settings.ts';
import { writeSpecFiles } from './spec-files.ts';
import { workerStartGateEnv } from './worker-start.ts';

export type { CheckRunOutput } from './collector.ts';

export interface CheckRunProcess {
  /** Hears the run's log lines, each check as it finishes and each problem outside any check; without it the checks run silently. */
  events?: RunEventSink;
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
    const env = { ...writeRunSettings(handOff, path.join(scratch, 'settings.json')), ...workerStartGateEnv(scratch) };
    // Stopped before Playwright started: nothing ran, and that is an interrupted run, not a broken one.
    if (process_.signal?.aborted) return interruptedBeforeStart();
    const heard = heardResults();
    const events = fanOut(process_.events ?? ignoreEvents, heard.events);
    const exitCode = await runPlaywright(playwrightArgs(settings), env, { ...process_, events });
    let end: CheckRunEnd;
    try {
      end = JSON.parse(readFileSync(handOff.paths.results, 'utf8')) as CheckRunEnd;
    } catch {
      // Interrupted while Playwright was still starting, before its collector could write anything.
      if (process_.signal?.aborted) return interruptedBeforeStart();
      throw new Error(`the check runner exited with code ${exitCode} without writing results`);
    }
    // What the channel could not carry comes with the end, told as it would have been.
    for (const event of end.unsent) events(event);
    const { unsent: _unsent, ...ended } = end;
    return { ...ended, checks: heard.checks(), errors: heard.problems() };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function interruptedBeforeStart(): CheckRunOutput {
  return { checks: [], errors: [], status: 'interrupted', startedAt: new Date().toISOString(), durationMs: 0 };
}

/** How long to wait, after Playwright exits, for the last lines still in its pipes. */
const EVENTS_DRAIN_MS = 2_000;

/** Resolves when the stream has ended (every process holding its pipe has let go) or failed. */
function ended(stream: Readable): Promise<void> {
  return new Promise((done) => {
    stream.once('end', done);
    stream.once('error', () => done());
  });
}

/**
 * The child's terminal output as the run's log, a line an event. Each stream
 * is read on its own: a line that one of them cut between two chunks is never
 * joined to the other's. Resolves when both have ended.
 */
export function relayLog(child: Pick<ChildProcess, 'stdout' | 'stderr'>, events: RunEventSink): Promise<void> {
  return Promise.all(
    [child.stdout!, child.stderr!].map((stream) => {
      const lines = lineReader((line) => events({ kind: 'log', line }));
      stream.on('data', (chunk: Buffer) => lines.write(chunk));
      return ended(stream).then(() => lines.end());
    }),
  ).then(() => undefined);
}

function runPlaywright(args: string[], settingsEnv: Record<string, string>, { events = ignoreEvents, signal, niceness }: CheckRunProcess): Promise<number | null> {
  return new Promise<number | null>((resolve, reject) => {
    // It and its workers end when this process is gone (runner/exit-with-parent.mjs); its workers start a core's worth at a time (runner/worker-start-gate.mjs).
    const preloads = ['exit-with-parent.mjs', 'worker-start-gate.mjs'].flatMap((file) => ['--import', pathToFileURL(fromRoot('runner', file)).href]);
    const child = spawn(process.execPath, [...preloads, ...args], {
      cwd: fromRoot(),
      env: { ...process.env, ...settingsEnv, FORCE_COLOR: '0' },
      // A pipe at the collector's descriptor: the event channel the checks come back on (runner/check-events.ts).
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    });
    // The collector's end of the pipe writes; this one reads.
    const channel = child.stdio[CHECK_EVENTS_FD] as Readable;
    channel.on('data', checkEventReader(events));
    // The pipes end when every process holding them has let go: Playwright, and the workers it started.
    const drained = Promise.all([relayLog(child, events), ended(channel)]);
    if (niceness) os.setPriority(child.pid!, niceness);
    // Interrupt, don't kill: on SIGINT Playwright stops the checks in flight
    // and its collector still writes what finished, for a partial report.
    const interrupt = () => child.kill('SIGINT');
    if (signal?.aborted) interrupt();
    signal?.addEventListener('abort', interrupt, { once: true });
    child.once('exit', () => signal?.removeEventListener('abort', interrupt));
    child.once('error', reject);
    child.once('exit', (code) => {
      // The last lines can still be in the pipe when the process is gone; a worker left behind must not hold the run.
      const timer = setTimeout(() => {
        channel.destroy();
        resolve(code);
      }, EVENTS_DRAIN_MS);
      void drained.then(() => {
        clearTimeout(timer);
        resolve(code);
      });
    });
  });
}
