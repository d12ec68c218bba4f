// Unstable checks through the API for CI (GET
// /api/implementations/ID/unstable-checks), on a real `ptas serve` whose store
// holds runs with verdicts of the test's choosing (seeded as a restored
// backup of bundles): a check whose verdict differs between two runs of one
// implementation with the same suite version and profile hash is listed with
// both observations and attributed to the implementation; on the bundled
// reference to the suite; a run of another profile, or a reference with a
// fault, is not compared; the answer follows a results.json written again; a
// viewer reads it; an unknown implementation is 404.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { UnstableCheck } from '../../src/results/instability.ts';
import { UNSTABLE, UNSTABLE_REASON, unstableRun } from '../support/unstable-runs.ts';
import { caller, startTestServer, type TestServer } from './support.ts';
import { seededImplementation, seedStore } from './support/seeded-runs.ts';

const ACME = 'Acme Payments';
const CLEAN = { faults: [], variants: [], conditions: [] };
const implementation = seededImplementation;

let lab: TestServer;
let data: string;

before(async () => {
  data = mkdtempSync(path.join(os.tmpdir(), 'ptas-serve-unstable-'));
  seedStore(
    data,
    [implementation('acme', ACME), implementation('globex', 'Globex')],
    [
      { id: 'acme-1', results: unstableRun({ startedAt: '2027-01-01T21:00:00.000Z', verdict: 'PASS', implementation: ACME }) },
      { id: 'acme-2', results: unstableRun({ startedAt: '2027-01-02T21:00:00.000Z', verdict: 'FAIL', implementation: ACME }) },
      { id: 'acme-3', results: unstableRun({ startedAt: '2027-01-03T21:00:00.000Z', verdict: 'PASS', implementation: ACME, profileHash: 'sha256:ffffffffffff' }) },
      { id: 'globex-1', results: unstableRun({ startedAt: '2027-01-01T21:00:00.000Z', verdict: 'FAIL', implementation: 'Globex' }) },
      { id: 'globex-2', results: unstableRun({ startedAt: '2027-01-02T21:00:00.000Z', verdict: 'FAIL', implementation: 'Globex' }) },
      { id: 'ref-1', results: unstableRun({ startedAt: '2027-01-01T21:00:00.000Z', verdict: 'PASS', reference: CLEAN, profileHash: 'sha256:aaaaaaaaaaaa' }) },
      { id: 'ref-2', results: unstableRun({ startedAt: '2027-01-02T21:00:00.000Z', verdict: 'FAIL', reference: CLEAN, profileHash: 'sha256:bbbbbbbbbbbb' }) },
      { id: 'ref-fault', results: unstableRun({ startedAt: '2027-01-03T21:00:00.000Z', verdict: 'FAIL', reference: { ...CLEAN, faults: ['refresh-token-reusable'] } }) },
    ],
  );
  lab = await startTestServer({ dataDir: data });
});

after(async () => {
  await lab?.close();
  rmSync(data, { recursive: true, force: true });
});

const unstableOf = async (id: string): Promise<UnstableCheck[]> => {
  const answer = await lab.call('GET', `/api/implementations/${id}/unstable-checks`);
  assert.equal(answer.status, 200, answer.text);
  return answer.json.checks as UnstableCheck[];
};

test('two runs of one implementation with the same suite version and profile hash, one check’s verdict differing: that check, both observations, the implementation’s', async () => {
  const [check, ...others] = await unstableOf('acme');
  assert.deepEqual(others, [], 'the steady check, and the run of another profile, add nothing');
  assert.equal(check!.id, UNSTABLE);
  assert.equal(check!.attribution, 'implementation');
  assert.equal(check!.attributed, "the implementation's: it answered differently to the same checks");
  assert.equal(check!.sameRuns, 'ptas 0.1.0, profile sha256:0123456789ab');
  const { earlier, later } = check!.observations;
  assert.deepEqual([earlier.run, earlier.verdict, later.run, later.verdict], ['acme-1', 'PASS', 'acme-2', 'FAIL']);
  assert.equal(later.reason, UNSTABLE_REASON);
  assert.match(later.basis ?? '', /^spec 4\.1 rule 2/);
  assert.deepEqual(later.claims, [{ level: 'FAIL', message: UNSTABLE_REASON }]);
  assert.match(later.evidence[0]!, /POST https:\/\/sandbox\.acme\.example\/v1\/oauth\/token → 200$/);
  assert.deepEqual(await unstableOf('globex'), [], 'the same verdict in every run');
});

test('on the bundled reference: the suite’s defect; the run with a fault is another implementation', async () => {
  const [check, ...others] = await unstableOf('reference');
  assert.deepEqual(others, []);
  assert.equal(check!.attribution, 'suite');
  assert.match(check!.attributed, /^the bundled reference: a defect of the suite/);
  assert.deepEqual([check!.observations.earlier.run, check!.observations.later.run], ['ref-1', 'ref-2']);
});

test('a results.json written again (a re-run joined into the bundle) is read again', async () => {
  assert.equal((await unstableOf('acme')).length, 1);
  writeFileSync(path.join(data, 'runs', 'acme-2', 'bundle', 'results.json'), JSON.stringify(unstableRun({ startedAt: '2027-01-02T21:00:00.000Z', verdict: 'PASS', implementation: ACME })));
  assert.deepEqual(await unstableOf('acme'), []);
});

test('a viewer reads it; an unknown implementation is 404, an id outside its pattern 400', async () => {
  const viewer = caller(lab.url, lab.server.services.tokens.create('auditor', { role: 'viewer' }));
  assert.equal((await viewer('GET', '/api/implementations/reference/unstable-checks')).status, 200);
  const unknown = await lab.call('GET', '/api/implementations/initech/unstable-checks');
  assert.deepEqual([unknown.status, unknown.json.error, unknown.json.message], [404, 'not-found', 'implementation initech does not exist']);
  assert.equal((await lab.call('GET', '/api/implementations/Not_An_Id/unstable-checks')).status, 400);
  assert.equal((await lab.call('GET', '/api/implementations/acme/unstable-checks', { token: null })).status, 401);
});
