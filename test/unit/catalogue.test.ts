// The requirement catalogue, the checks and the faults must stay in step:
// every requirement has a check and a fault, every check and fault names a
// known requirement.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { catalogue } from '../../src/requirements.ts';
import { listAllChecks } from '../../src/run/list.ts';
import { FAULTS } from '../../reference/faults/index.ts';

const requirements = catalogue().requirements;
const ids = new Set(requirements.map((r) => r.id));

test('requirement ids are unique and well formed', () => {
  assert.equal(ids.size, requirements.length);
  for (const r of requirements) {
    assert.match(r.id, /^[A-Z][A-Z0-9-]+$/);
    assert.ok(['MUST', 'SHOULD', 'REVIEW'].includes(r.level), `${r.id} level ${r.level}`);
    assert.ok(r.clause && r.text, `${r.id} needs a clause and a text`);
  }
});

test('every check names known requirements, and every requirement has a check', () => {
  const checks = listAllChecks();
  const checkIds = checks.map((c) => c.id);
  assert.equal(new Set(checkIds).size, checkIds.length, 'check ids must be unique');
  for (const c of checks) for (const r of c.requirements) assert.ok(ids.has(r), `${c.id} names unknown requirement ${r}`);
  const covered = new Set(checks.flatMap((c) => c.requirements));
  assert.deepEqual(requirements.filter((r) => !covered.has(r.id)).map((r) => r.id), [], 'requirements without a check');
});

test('every fault names a known requirement, and every requirement has a fault', () => {
  const names = FAULTS.map((f) => f.name);
  assert.equal(new Set(names).size, names.length, 'fault names must be unique');
  for (const f of FAULTS) assert.ok(ids.has(f.requirement), `fault ${f.name} names unknown requirement ${f.requirement}`);
  const broken = new Set(FAULTS.map((f) => f.requirement));
  assert.deepEqual(requirements.filter((r) => !broken.has(r.id)).map((r) => r.id), [], 'requirements no fault breaks');
});
