// Sensitivity of exploration alone (no hand-written check runs): against
// each reference fault of an explored area, over a fixed seed and a fixed
// number of cases, exploration finds exactly what test/explore/fault-table.ts
// says — the explored rule that catches it, and nothing for a fault it
// cannot catch by design — and no other rule of the area (a collateral
// finding would blame something the fault does not concern).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AREA_MODELS } from '../../explore/areas/index.ts';
import { exploreSeeds, exploredAreaOf, faultTargets, withReference } from '../support/explore-proof.ts';
import { EXPLORED_FAULTS } from './fault-table.ts';

const SEED = 20261129;

test('the table names every fault of the explored areas', () => {
  assert.deepEqual(faultTargets().map((t) => t.name).sort(), Object.keys(EXPLORED_FAULTS).sort());
});

test('exploration alone finds each fault the table says it finds, by the rule it names, and nothing else', async () => {
  const observed: Record<string, string[]> = {};
  for (const target of faultTargets()) {
    const models = AREA_MODELS.filter((m) => m.area === exploredAreaOf(target.name));
    const { above } = await withReference(target, (explored) => exploreSeeds(explored, [SEED], { maxCases: 1000, models }));
    observed[target.name] = [...new Set(above.map((a) => `${a.verdict} ${a.check}`))].sort();
  }
  const expected = Object.fromEntries(
    Object.entries(EXPLORED_FAULTS).map(([fault, e]) => [fault, 'foundBy' in e ? [`${e.foundBy.includes('parameter-error-code') ? 'WARN' : 'FAIL'} ${e.foundBy}`] : []]),
  );
  assert.deepEqual(observed, expected);
  const found = Object.values(EXPLORED_FAULTS).filter((e) => 'foundBy' in e).length;
  console.log(`explored faults found by exploration alone: ${found} of ${Object.keys(EXPLORED_FAULTS).length}`);
});
