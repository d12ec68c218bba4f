// A `ptas serve` killed outright (SIGKILL: no handler runs) while a run is
// in flight leaves nothing behind: the run's Playwright process and its
// workers notice their parent is gone and end (runner/exit-with-parent.mjs),
// instead of going on sending requests to the target with nobody to read
// them — also a process that writes nothing, which no broken pipe would stop. The processes are found
// as the server's descendants in /proc (Linux), each known by its pid and
// start time, so a reused pid is never mistaken for one of them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { fromRoot } from '../../src/paths.ts';
import { caller, startServeProcess } from '../serve/support.ts';

interface ProcessId {
  pid: number;
  /** Field 22 of /proc/PID/stat: when it started, in clock ticks since boot. */
  started: string;
  command: string;
}

function stat(pid: number): { ppid: number; started: string } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), started: fields[19]! };
  } catch {
    return undefined;
  }
}

function command(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
  } catch {
    return '';
  }
}

/** Every process below `root`, with what it runs. */
function descendants(root: number): ProcessId[] {
  const parents = new Map<number, number[]>();
  const started = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const info = stat(pid);
    if (!info) continue;
    started.set(pid, info.started);
    parents.set(info.ppid, [...(parents.get(info.ppid) ?? []), pid]);
  }
  const found: ProcessId[] = [];
  const walk = (pid: number) => {
    for (const child of parents.get(pid) ?? []) {
      found.push({ pid: child, started: started.get(child)!, command: command(child) });
      walk(child);
    }
  };
  walk(root);
  return found;
}

const alive = (p: ProcessId) => stat(p.pid)?.started === p.started;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('a ptas serve killed with SIGKILL during a run leaves no process of the run behind', { skip: !existsSync('/proc/self/stat') && 'SKIPPED: needs /proc (Linux) to find the processes', timeout: 120_000 }, async () => {
  const data = mkdtempSync(path.join(os.tmpdir(), 'ptas-orphans-'));
  const serve = await startServeProcess(data);
  let left: ProcessId[] = [];
  try {
    const call = caller(serve.url, serve.token!);
    const started = await call('POST', '/api/runs', { body: { implementation: 'reference', options: { load: false } } });
    assert.equal(started.status, 202, started.text);
    // Until Playwright and its workers run the checks.
    let running: ProcessId[] = [];
    for (let waited = 0; waited < 60_000; waited += 250) {
      running = descendants(serve.child.pid!);
      if (running.some((p) => p.command.includes('workerProcessEntry'))) break;
      await sleep(250);
    }
    assert.ok(running.some((p) => p.command.includes('workerProcessEntry')), `no Playwright worker under the server:\n${running.map((p) => p.command).join('\n')}`);
    assert.ok(running.some((p) => /playwright.*cli\.js test/.test(p.command)), 'and the Playwright process that started them');

    serve.child.kill('SIGKILL');
    await serve.exited;
    for (let waited = 0; waited < 15_000; waited += 250) {
      left = running.filter(alive);
      if (!left.length) break;
      await sleep(250);
    }
    assert.deepEqual(
      left.map((p) => p.command),
      [],
      'processes of the run still running 15 s after the server was killed',
    );
  } finally {
    for (const p of left.filter(alive)) process.kill(p.pid, 'SIGKILL');
    if (serve.child.exitCode === null) serve.child.kill('SIGKILL');
    rmSync(data, { recursive: true, force: true });
  }
});

test('a process started with runner/exit-with-parent.mjs ends when its parent is killed, though it writes nothing', { skip: !existsSync('/proc/self/stat') && 'SKIPPED: needs /proc (Linux)', timeout: 30_000 }, async () => {
  const watchdog = pathToFileURL(fromRoot('runner', 'exit-with-parent.mjs')).href;
  // The parent starts a quiet child (it only waits) and prints its pid; then the parent is killed.
  const script = `const c = require('node:child_process').spawn(process.execPath, ['--import', ${JSON.stringify(watchdog)}, '-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }); console.log(c.pid); setInterval(() => {}, 1000);`;
  const parent = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const childPid = await new Promise<number>((resolve) => parent.stdout.once('data', (chunk: Buffer) => resolve(Number(String(chunk).trim()))));
  const child: ProcessId = { pid: childPid, started: stat(childPid)!.started, command: command(childPid) };
  await sleep(700);
  assert.ok(alive(child), 'the quiet child runs while its parent does');
  parent.kill('SIGKILL');
  let waited = 0;
  for (; alive(child) && waited < 10_000; waited += 100) await sleep(100);
  if (alive(child)) process.kill(child.pid, 'SIGKILL');
  assert.ok(waited < 10_000, 'the child still ran 10 s after its parent was killed');
});
