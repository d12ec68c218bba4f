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

test('SIGINT mid-run: partial INCOMPLETE report, exit 130, no process left', { timeout: 120_000 }, async () => {
  const out = mkdtempSync(path.join(os.tmpdir(), 'ptas-sigint-'));
  const marker = `PTAS_TEST_MARKER=${randomUUID()}`;
  const [key, value] = marker.split('=') as [string, string];
  const child = spawn(process.execPath, [fromRoot('bin', 'ptas.js'), 'run', '--out', out, '--workers', '1'], {
    cwd: fromRoot(),
    env: { ...process.env, [key]: value },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let interruptedAt = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk;
    // Interrupt once some checks have finished, while others are still to come.
    if (!interruptedAt && /\[\s*3\//.test(stdout)) {
      interruptedAt = performance.now();
      child.kill('SIGINT');
    }
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const stopMs = performance.now() - interruptedAt;
  assert.ok(interruptedAt > 0, `the run never reached its third check:\n${stdout}`);
  assert.equal(code, 130, stdout);
  assert.ok(stopMs < 5_000, `stopping took ${stopMs.toFixed(0)} ms`);
  const results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as RunResults;
  assert.equal(results.verdict, 'INCOMPLETE');
  assert.match(results.run.interrupted ?? '', /interrupted/);
  assert.ok(results.checks.length >= 3, 'the checks that finished are in the partial report');
  await new Promise((resolve) => setTimeout(resolve, 500));
  assert.deepEqual(processesWithMarker(marker), [], 'processes of the run are still alive');
});
