// Unstable checks (src/results/instability.ts): a check whose verdict differs
// between runs with the same suite version and profile hash is unstable, the
// two observations side by side (verdict, reason, basis, claims, evidence);
// runs of another profile or suite version are not compared, nor a bundled
// reference with a fault against a clean one; unstable on the bundled
// reference is the suite's defect, elsewhere the implementation's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ATTRIBUTIONS, observedRun, unstableChecks } from '../../src/results/instability.ts';
import type { RunResults } from '../../src/results/model.ts';
import { PASS_CLAIM, STEADY, UNSTABLE, UNSTABLE_REASON, unstableRun, type RunShape } from '../support/unstable-runs.ts';

const CLEAN = { faults: [], variants: [], conditions: [] };

function observe(...shapes: RunShape[]) {
  return unstableChecks(shapes.map((shape, n) => observedRun(`run-${n + 1}`, unstableRun(shape))));
}

test('same suite version and profile hash, the verdict differs: unstable, with both observations side by side, the latest change last', () => {
  const unstable = observe(
    { startedAt: '2027-01-01T21:00:00.000Z', verdict: 'PASS' },
    { startedAt: '2027-01-03T21:00:00.000Z', verdict: 'PASS' },
    { startedAt: '2027-01-02T21:00:00.000Z', verdict: 'FAIL' },
  );
  assert.equal(unstable.length, 1, 'the steady check is not unstable');
  const [check] = unstable;
  assert.equal(check!.id, UNSTABLE);
  assert.equal(check!.sameRuns, 'ptas 0.1.0, profile sha256:0123456789ab');
  assert.deepEqual(check!.verdicts, [
    { verdict: 'PASS', count: 2 },
    { verdict: 'FAIL', count: 1 },
  ]);
  const { earlier, later } = check!.observations;
  assert.deepEqual([earlier.run, earlier.verdict, later.run, later.verdict], ['run-3', 'FAIL', 'run-2', 'PASS'], 'the latest run, and the latest before it with another verdict');
  assert.equal(earlier.reason, UNSTABLE_REASON);
  assert.match(earlier.basis!, /^spec 4\.1 rule 2, 5 rule 2: "It is exchanged with client_id for a new access token, and each refresh token is single-use\."$/);
  assert.deepEqual(earlier.claims, [{ level: 'FAIL', message: UNSTABLE_REASON }]);
  assert.deepEqual(earlier.evidence, ['refresh with the used refresh token: POST https://sandbox.acme.example/v1/oauth/token → 200']);
  assert.equal(later.basis, undefined);
  assert.deepEqual(later.claims, [{ level: 'INFO', message: PASS_CLAIM }]);
  assert.deepEqual(later.evidence, ['refresh with the used refresh token: POST https://sandbox.acme.example/v1/oauth/token → 400']);
  assert.equal(check!.attribution, 'implementation');
  assert.equal(check!.attributed, "the implementation's: it answered differently to the same checks");
});

test('another profile hash or another suite version is not compared', () => {
  assert.deepEqual(observe({ startedAt: '2027-01-01T21:00:00.000Z', verdict: 'PASS' }, { startedAt: '2027-01-02T21:00:00.000Z', verdict: 'FAIL', profileHash: 'sha256:ffffffffffff' }), []);
  assert.deepEqual(observe({ startedAt: '2027-01-01T21:00:00.000Z', verdict: 'PASS' }, { startedAt: '2027-01-02T21:00:00.000Z', verdict: 'FAIL', suiteVersion: '0.2.0' }), []);
  const night = (suiteVersion: string | undefined): RunResults => {
    const results = unstableRun({ startedAt: '2027-01-02T21:00:00.000Z', verdict: 'FAIL' });
    return { ...results, run: { ...results.run, suiteVersion: suiteVersion as string } };
  };
  assert.deepEqual(unstableChecks([observedRun('a', unstableRun({ startedAt: '2027-01-01T21:00:00.000Z', verdict: 'PASS' })), observedRun('b', night(undefined))]), [], 'a night without a suite version is compared with none');
});

test('on the bundled reference: the suite’s defect, compared across the reference’s own profile hashes, never a faulty reference with a clean one', () => {
  // The reference's profile names the port it was started on: every run has another hash.
  const unstable = observe(
    { startedAt: '2027-01-01T21:00:00.000Z', verdict: 'PASS', reference: CLEAN, profileHash: 'sha256:aaaaaaaaaaaa' },
    { startedAt: '2027-01-02T21:00:00.000Z', verdict: 'FAIL', reference: CLEAN, profileHash: 'sha256:bbbbbbbbbbbb' },
  );
  assert.equal(unstable.length, 1);
  assert.equal(unstable[0]!.attribution, 'suite');
  assert.equal(unstable[0]!.attributed, ATTRIBUTIONS.suite);
  assert.match(unstable[0]!.attributed, /a defect of the suite/);
  assert.equal(unstable[0]!.sameRuns, 'ptas 0.1.0, the bundled reference (faults: none; variants: none; conditions: none)');

  const faulty = { faults: ['refresh-token-reusable'], variants: [], conditions: [] };
  assert.deepEqual(observe({ startedAt: '2027-01-01T21:00:00.000Z', verdict: 'PASS', reference: CLEAN }, { startedAt: '2027-01-02T21:00:00.000Z', verdict: 'FAIL', reference: faulty }), [], 'a fault makes another implementation');
  assert.deepEqual(observe({ startedAt: '2027-01-01T21:00:00.000Z', verdict: 'PASS', reference: CLEAN }, { startedAt: '2027-01-02T21:00:00.000Z', verdict: 'FAIL' }), [], 'nor is the reference another implementation with the same hash');
});

test('a waived verdict is compared as the check gave it; a check the run’s interruption cut short is left out', () => {
  const waived = unstableRun({ startedAt: '2027-01-02T21:00:00.000Z', verdict: 'FAIL' });
  const failing = waived.checks.find((c) => c.id === UNSTABLE)!;
  waived.checks = waived.checks.map((c) => (c === failing ? { ...c, verdict: 'WAIVED', waived: { verdict: 'FAIL', waiver: {} as never } } : c));
  const twoFails = [observedRun('a', unstableRun({ startedAt: '2027-01-01T21:00:00.000Z', verdict: 'FAIL' })), observedRun('b', waived)];
  assert.deepEqual(unstableChecks(twoFails), [], 'FAIL, then a FAIL a waiver accepted: one verdict');

  const interrupted = unstableRun({ startedAt: '2027-01-02T21:00:00.000Z', verdict: 'FAIL' });
  interrupted.checks = interrupted.checks.map((c) => (c.id === UNSTABLE ? { ...c, verdict: 'ERROR', record: { claims: [], interrupted: 'interrupted (SIGINT)' } } : c));
  const cut = [observedRun('a', unstableRun({ startedAt: '2027-01-01T21:00:00.000Z', verdict: 'PASS' })), observedRun('b', interrupted)];
  assert.deepEqual(observedRun('b', interrupted).checks.map((c) => c.id), [STEADY]);
  assert.deepEqual(unstableChecks(cut), []);
});
