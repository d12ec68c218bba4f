// The proof that the conformance checks work: the clean reference passes
// every check, and every fault of the reference is caught by the checks
// covering the requirement it breaks (DESIGN.md principle 8).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { conformanceFaults, runSelfTest } from '../support/selftest.ts';

// PTAS_SELFTEST_ONLY=name,name (fault names or requirement-id prefixes) narrows the run while developing.
const only = process.env.PTAS_SELFTEST_ONLY?.split(',').filter(Boolean);
const selected = conformanceFaults().filter((f) => !only || only.some((o) => f.name === o || f.requirement.startsWith(o)));

test('self-test: clean reference passes, every fault is caught', { timeout: 10 * 60_000 }, async (t) => {
  const result = await runSelfTest(selected);
  assert.deepEqual(result.errors, [], 'the check runner reported errors');

  const falseFailures = result.clean.filter((c) => c.verdict === 'FAIL' || c.verdict === 'WARN' || c.verdict === 'ERROR');
  assert.deepEqual(
    falseFailures.map((c) => `${c.id}: ${c.verdict} ${c.reason}`),
    [],
    'the clean reference must pass every check',
  );
  for (const c of result.clean.filter((c) => c.verdict === 'SKIP' || c.verdict === 'REVIEW')) {
    assert.ok(c.reason, `${c.id} is ${c.verdict} without a reason`);
  }

  const missed = result.faults.filter((f) => !f.caught);
  const notFlagged = result.faults.filter((f) => f.caught && !f.notConformant);
  const caught = result.faults.length - missed.length;
  const score = result.faults.length ? (100 * caught) / result.faults.length : 100;
  t.diagnostic(`mutation score: ${caught}/${result.faults.length} faults caught (${score.toFixed(1)}%) in ${(result.durationMs / 1000).toFixed(1)} s`);
  t.diagnostic(`clean reference: ${result.clean.length} checks, ${result.clean.filter((c) => c.verdict === 'PASS').length} PASS`);
  assert.deepEqual(
    missed.map((f) => `${f.fault.name} (${f.fault.requirement}): ${f.checks.map((c) => `${c.id}=${c.verdict}`).join(', ') || 'no covering check ran'}`),
    [],
    'faults no check caught',
  );
  assert.deepEqual(notFlagged.map((f) => f.fault.name), [], 'faults of MUST requirements that left the run CONFORMANT');
});
