// Ctrl-C during a run: it stops within a couple of seconds, writes a partial
// report marked INCOMPLETE, exits 130 and leaves no child process behind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fromRoot } from '../../src/paths.ts';
import type { RunResults } from '../../src/results/model.ts';
import { processesWithMarker } from '../support/processes.ts';

/** Starts `ptas run`, sends SIGINT when `when` matches its output, and returns what happened. */
async function interruptRun(args: string[], when: RegExp, delayMs = 0) {
  const out = mkdtempSync(path.join(os.tmpdir(), 'ptas-sigint-'));
  const marker = `PTAS_TEST_MARKER=${randomUUID()}`;
  const [key, value] = marker.split('=') as [string, string];
  const child = spawn(process.execPath, [fromRoot('bin', 'ptas.js'), 'run', '--out', out, ...args], {
    cwd: fromRoot(),
    env: { ...process.env, [key]: value },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let interruptedAt = 0;
  let armed = false;
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk;
    if (!armed && when.test(stdout)) {
      armed = true;
      setTimeout(() => {
        interruptedAt = performance.now();
        child.kill('SIGINT');
      }, delayMs);
    }
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const stopMs = performance.now() - interruptedAt;
  assert.ok(interruptedAt > 0, `the run never reached ${when}:\n${stdout}`);
  // Give the OS a moment to reap what the run stopped before looking for leftovers.
  await new Promise((resolve) => setTimeout(resolve, 500));
  return { code, stopMs, stdout, leftovers: processesWithMarker(marker), results: JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as RunResults };
}

test('SIGINT during the checks: partial INCOMPLETE report, exit 130, no process left', { timeout: 120_000 }, async (t) => {
  // Interrupt once some checks have finished, while others are still to come.
  const run = await interruptRun(['--workers', '1'], /\[\s*3\//);
  t.diagnostic(`stopped ${run.stopMs.toFixed(0)} ms after SIGINT`);
  assert.equal(run.code, 130, run.stdout);
  assert.ok(run.stopMs < 5_000, `stopping took ${run.stopMs.toFixed(0)} ms`);
  assert.equal(run.results.verdict, 'INCOMPLETE');
  assert.match(run.results.run.interrupted ?? '', /interrupted/);
  assert.ok(run.results.checks.length >= 3, 'the checks that finished are in the partial report');
  assert.deepEqual(run.leftovers, [], 'processes of the run are still alive');
});

test('SIGINT during the load stage: load stops at once, INCOMPLETE report, exit 130, no process left', { timeout: 120_000 }, async (t) => {
  const run = await interruptRun(['--grep', '@check:auth\\.client-credentials-issues-pair'], /load stage/, 1_000);
  t.diagnostic(`stopped ${run.stopMs.toFixed(0)} ms after SIGINT`);
  assert.equal(run.code, 130, run.stdout);
  assert.ok(run.stopMs < 2_000, `stopping took ${run.stopMs.toFixed(0)} ms`);
  assert.equal(run.results.verdict, 'INCOMPLETE');
  assert.deepEqual(run.leftovers, [], 'processes of the run are still alive');
});
