// schemas/results.schema.json publishes the results model: a complete
// document (every optional field filled) validates, and the schema rejects
// what the model forbids. A real run's results.json is validated by
// browser.test.ts, which makes one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateAgainst } from '../../src/schemas/registry.ts';
import { catalogue } from '../../src/requirements.ts';
import { completeResults } from './support/complete.ts';
import { syntheticResults } from './support/synthetic.ts';

const clone = <T>(value: T): T => structuredClone(value);
const errorsOf = (doc: unknown) => validateAgainst('results.schema.json', doc).map((e) => `${e.instancePath} ${e.message}`);

test('a results document with every field of the model validates', () => {
  assert.deepEqual(errorsOf(completeResults), []);
});

test('synthetic results with 1,000 checks and a load section validate', () => {
  assert.deepEqual(errorsOf(syntheticResults({ checks: 1000, loadRequests: 1_000_000 })), []);
});

test('the schema rejects unknown fields, bad verdicts and missing evidence fields', () => {
  const extra = clone(completeResults) as unknown as Record<string, unknown>;
  extra.surprise = true;
  assert.deepEqual(errorsOf(extra), [' must NOT have additional properties']);

  const badVerdict = clone(completeResults);
  (badVerdict.checks[0] as { verdict: string }).verdict = 'MAYBE';
  assert.deepEqual(errorsOf(badVerdict), ['/checks/0/verdict must be equal to one of the allowed values']);

  const noCurl = clone(completeResults) as unknown as { checks: Array<{ evidence: Array<Record<string, unknown>> }> };
  delete noCurl.checks[0]!.evidence[0]!.curl;
  assert.deepEqual(errorsOf(noCurl), ["/checks/0/evidence/0 must have required property 'curl'"]);

  const badProbe = clone(completeResults) as unknown as { load: { probes: Array<Record<string, unknown>> } };
  badProbe.load.probes[1]!.kind = 'latency';
  assert.ok(errorsOf(badProbe).some((e) => e.startsWith('/load/probes/1')));

  const badTime = clone(completeResults);
  badTime.run.startedAt = 'yesterday';
  assert.deepEqual(errorsOf(badTime), ['/run/startedAt must match format "date-time"']);
});

test('every area of the requirement catalogue is an area the schema allows', () => {
  for (const requirement of catalogue().requirements) {
    const doc = clone(completeResults);
    doc.requirements[0]!.area = requirement.area;
    assert.deepEqual(errorsOf(doc), [], `area ${requirement.area} of ${requirement.id}`);
  }
});
