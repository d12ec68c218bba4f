// runner/worker-start-gate.mjs: a run's workers load a core's worth at a
// time. Real processes, named as Playwright's worker entry is, each holding
// its slot for a while before it says it is ready.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { fromRoot } from '../../src/paths.ts';

const gate = pathToFileURL(fromRoot('runner', 'worker-start-gate.mjs')).href;

/** A stand-in worker: prints when it got past the gate and when it released its slot (or exits without releasing, with `die`). */
const WORKER = `
const started = Date.now();
const [holdMs, mode] = process.argv.slice(2);
console.log(JSON.stringify({ event: 'in', at: started }));
setTimeout(() => {
  if (mode === 'die') process.exit(0);
  // Told before the release: the next worker gets in only after this moment.
  console.log(JSON.stringify({ event: 'ready', at: Date.now() }));
  globalThis[Symbol.for('ptas.releaseWorkerStartSlot')]?.();
  setTimeout(() => {}, 200);
}, Number(holdMs));
`;

interface Span {
  in: number;
  ready: number;
}

function runWorker(script: string, dir: string, slots: number, holdMs: number, mode = 'release'): Promise<Span> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', gate, script, String(holdMs), mode], {
      env: { ...process.env, PTAS_WORKER_START_GATE: path.join(dir, 'gate'), PTAS_WORKER_START_SLOTS: String(slots) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.once('error', reject);
    child.once('exit', () => {
      const events = out.trim().split('\n').map((line) => JSON.parse(line) as { event: string; at: number });
      const at = (event: string) => events.find((e) => e.event === event)?.at;
      resolve({ in: at('in')!, ready: at('ready') ?? Date.now() });
    });
  });
}

function withWorkerScript<T>(body: (script: string, dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ptas-gate-'));
  // The gate recognises Playwright's workers by their entry's file name.
  const script = path.join(dir, 'workerProcessEntry.js');
  writeFileSync(script, WORKER);
  return body(script, dir).finally(() => rmSync(dir, { recursive: true, force: true }));
}

test('six workers behind two slots: never more than two loading at once, and every one gets through', async () => {
  await withWorkerScript(async (script, dir) => {
    const spans = await Promise.all(Array.from({ length: 6 }, () => runWorker(script, dir, 2, 300)));
    // At the moment each worker got in, how many were between getting in and being ready (itself included).
    for (const span of spans) {
      const loading = spans.filter((other) => other.in <= span.in && other.ready > span.in).length;
      assert.ok(loading <= 2, `${loading} workers were loading at once`);
    }
    const last = Math.max(...spans.map((s) => s.ready)) - Math.min(...spans.map((s) => s.in));
    assert.ok(last >= 3 * 300, `six workers of 300 ms through two slots took ${last} ms: they did not take turns`);
  });
});

test('a worker that dies holding its slot does not hold up the next one', async () => {
  await withWorkerScript(async (script, dir) => {
    await runWorker(script, dir, 1, 50, 'die');
    const started = Date.now();
    const next = await runWorker(script, dir, 1, 50);
    assert.ok(next.in - started < 5_000, `the next worker waited ${next.in - started} ms for a dead holder's slot`);
  });
});

test('a process that is not a Playwright worker never waits', async () => {
  await withWorkerScript(async (_script, dir) => {
    const other = path.join(dir, 'main.js');
    writeFileSync(other, WORKER);
    // One slot, held by a worker for 3 s: the main process passes at once.
    const holder = runWorker(path.join(dir, 'workerProcessEntry.js'), dir, 1, 3_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const started = Date.now();
    const main = await runWorker(other, dir, 1, 10);
    assert.ok(main.in - started < 2_000, `a non-worker waited ${main.in - started} ms at the gate`);
    await holder;
  });
});

test("Playwright's workers still start from the entry the gate recognises (an upgrade renaming it would silently turn the gate off)", () => {
  const entry = path.join(path.dirname(createRequire(import.meta.url).resolve('playwright/package.json')), 'lib', 'worker', 'workerProcessEntry.js');
  assert.ok(existsSync(entry), `${entry} is gone: update the name in runner/worker-start-gate.mjs`);
});
