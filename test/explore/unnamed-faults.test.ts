// The reference's faults that no hand-written check names (Fault.unnamed):
// `ptas run` of their area's hand-written checks stays CONFORMANT with all of
// them at once, while exploration alone finds each
// (test/explore/sensitivity.test.ts, by the rule test/explore/fault-table.ts
// names). They are what exploration is for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FAULTS } from '../../reference/faults/index.ts';
import { requirementById } from '../../src/requirements.ts';
import type { RunResults } from '../../src/results/model.ts';
import { runPtas } from '../support/cli.ts';
import { EXPLORED_FAULTS } from './fault-table.ts';

const unnamed = FAULTS.filter((f) => f.unnamed);

test('every unnamed fault is one exploration finds', () => {
  assert.ok(unnamed.length > 0);
  for (const fault of unnamed) assert.ok('foundBy' in (EXPLORED_FAULTS[fault.name] ?? {}), `${fault.name} is in the fault table as found by exploration`);
});

test("the hand-written checks of the unnamed faults' areas stay CONFORMANT with every unnamed fault at once", async () => {
  const areas = [...new Set(unnamed.map((f) => requirementById(f.requirement)!.area))];
  const out = path.join(mkdtempSync(path.join(tmpdir(), 'ptas-unnamed-')), 'run');
  const run = await runPtas(['run', '--no-load', '--workers', '2', '--grep', areas.map((a) => `@area:${a}`).join('|'), ...unnamed.flatMap((f) => ['--fault', f.name]), '--out', out]);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as RunResults;
  assert.equal(results.verdict, 'CONFORMANT');
  assert.ok(results.checks.some((c) => c.requirements.includes('WDA-ECHOES-REQUEST') && c.verdict === 'PASS'), 'the echo check ran and passed');
});
