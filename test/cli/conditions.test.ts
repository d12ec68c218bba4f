// The conditions of the bundled reference on the real command line:
// `ptas reference --list-conditions` lists every one, and `ptas run
// --condition` refuses what --fault and --variant refuse (an unknown name, a
// base URL) as usage errors, exit 2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runPtas } from '../support/cli.ts';
import { CONDITIONS } from '../../reference/conditions/index.ts';

test('ptas reference --list-conditions prints the twelve conditions, one line each, with what they touch', async () => {
  const run = await runPtas(['reference', '--list-conditions']);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^12 conditions/);
  for (const condition of CONDITIONS) {
    const touches = condition.touches === 'all' ? 'all' : condition.touches.join(', ');
    assert.match(run.stdout, new RegExp(`^${condition.name}\\s+\\[${touches}\\] \\S`, 'm'), condition.name);
  }
  assert.equal(run.stdout.trim().split('\n').length, 2 + CONDITIONS.length, 'a header, a blank line, one line per condition');
});

test('ptas run --condition: an unknown name exits 2 pointing at --list-conditions', async () => {
  const run = await runPtas(['run', '--no-load', '--condition', 'nope']);
  assert.equal(run.code, 2, run.stdout + run.stderr);
  assert.match(run.stderr, /unknown condition: nope.*--list-conditions/);
});

test('ptas run --condition with --base-url exits 2: conditions change the embedded reference only', async () => {
  const run = await runPtas(['run', '--no-load', '--base-url', 'http://x', '--condition', 'latency'], { env: { PTAS_CLIENT_ID: 'x', PTAS_CLIENT_SECRET: 'irrelevant-secret' } });
  assert.equal(run.code, 2, run.stdout + run.stderr);
  assert.match(run.stderr, /--condition changes the embedded reference; it cannot be combined with --base-url/);
});

test('--condition is in the help of ptas run and ptas reference', async () => {
  const [run, reference] = await Promise.all([runPtas(['run', '--help']), runPtas(['reference', '--help'])]);
  assert.match(run.stdout, /--condition\b[\s\S]*--list-conditions/);
  assert.match(reference.stdout, /--condition\b/);
  assert.match(reference.stdout, /--list-conditions/);
});
