// The re-run policy (src/results/attempts.ts): what a check's verdict is when
// its part of a sharded run ran more than once, which attempt's evidence it
// keeps, and what FLAKY does to the run verdict (src/results/verdict.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Verdict } from '../../src/check/model.ts';
import { attemptsDisagree, foldAttempts, mergeAttempts } from '../../src/results/attempts.ts';
import { explainRunVerdict, runVerdict } from '../../src/results/verdict.ts';
import { FIRST_RUN, flakyRun, RE_RUN, singleUse } from '../support/attempt-fixtures.ts';
import { SINGLE_USE, SINGLE_USE_REASON } from '../support/waiver-fixtures.ts';

const fold = (...verdicts: Verdict[]) => {
  const { verdict, decisive } = foldAttempts(verdicts);
  return `${verdict}@${decisive + 1}`;
};

test('attempts that agree give their verdict, with the last attempt kept as evidence', () => {
  assert.equal(fold('PASS'), 'PASS@1');
  assert.equal(fold('PASS', 'PASS'), 'PASS@2');
  assert.equal(fold('FAIL', 'FAIL'), 'FAIL@2');
  assert.equal(fold('WARN', 'WARN', 'WARN'), 'WARN@3');
  assert.equal(fold('ERROR', 'ERROR'), 'ERROR@2');
});

test('a FAIL followed by a PASS, WARN or REVIEW is FLAKY, keeping the (latest) failing attempt', () => {
  assert.equal(fold('FAIL', 'PASS'), 'FLAKY@1');
  assert.equal(fold('FAIL', 'WARN'), 'FLAKY@1');
  assert.equal(fold('FAIL', 'REVIEW'), 'FLAKY@1');
  assert.equal(fold('FAIL', 'PASS', 'FAIL'), 'FLAKY@3', 'failed, passed, failed again: flaky, and the latest failure is the evidence');
  assert.equal(fold('ERROR', 'FAIL', 'PASS'), 'FLAKY@2');
});

test('an ERROR followed by a verdict is an infrastructure retry that recovered: the later verdict stands', () => {
  assert.equal(fold('ERROR', 'PASS'), 'PASS@2');
  assert.equal(fold('ERROR', 'FAIL'), 'FAIL@2');
  assert.equal(fold('ERROR', 'WARN'), 'WARN@2');
  assert.equal(fold('ERROR', 'SKIP'), 'SKIP@2');
});

test('a FAIL is never replaced by a later attempt that observed nothing (ERROR, SKIP), nor a PASS by a later ERROR', () => {
  assert.equal(fold('FAIL', 'ERROR'), 'FAIL@1');
  assert.equal(fold('FAIL', 'SKIP'), 'FAIL@1');
  assert.equal(fold('PASS', 'ERROR'), 'PASS@1');
});

test('anything else: the last attempt that observed something decides', () => {
  assert.equal(fold('PASS', 'FAIL'), 'FAIL@2', 'a pass then a failure is a FAIL: the latest observation contradicts the spec');
  assert.equal(fold('WARN', 'PASS'), 'PASS@2');
  assert.equal(fold('PASS', 'WARN'), 'WARN@2');
  assert.equal(fold('REVIEW', 'PASS'), 'PASS@2');
  assert.equal(fold('SKIP', 'ERROR'), 'ERROR@2');
  assert.throws(() => foldAttempts([]), /at least one attempt/);
});

test('FAIL then PASS merges into FLAKY with the failing attempt\'s reason, basis and evidence, and both attempts', () => {
  const merged = mergeAttempts([
    { run: FIRST_RUN, check: singleUse('FAIL') },
    { run: RE_RUN, check: singleUse('PASS') },
  ]);
  assert.equal(merged.verdict, 'FLAKY');
  assert.deepEqual(merged.evidence.map((e) => [e.label, e.response?.status]), [['second use of the refresh token', 200]], 'the FAIL stays defensible');
  assert.equal(merged.basis?.requirement, 'TOKEN-REFRESH-SINGLE-USE');
  assert.equal(
    merged.reason,
    `FAILed in attempt 1 of part 2/2, then PASS in attempt 2: a fail-then-pass is not a pass. Attempt 1 (run started 2026-12-31T21:00:00.000Z, manifest sha256:111111111111…) failed: ${SINGLE_USE_REASON}`,
  );
  assert.deepEqual(
    merged.attempts?.map((a) => [a.run.attempt, a.verdict, a.reason ?? null, a.decisive, a.run.manifestSha256.slice(0, 1)]),
    [
      [1, 'FAIL', SINGLE_USE_REASON, true, '1'],
      [2, 'PASS', null, false, '2'],
    ],
  );
  assert.equal(attemptsDisagree(merged), undefined);
});

test('ERROR then PASS merges into PASS with the passing attempt\'s evidence, the ERROR recorded', () => {
  const error = { ...singleUse('PASS'), verdict: 'ERROR' as const, reason: 'the connection was reset', evidence: [] };
  const merged = mergeAttempts([
    { run: FIRST_RUN, check: error },
    { run: RE_RUN, check: singleUse('PASS') },
  ]);
  assert.equal(merged.verdict, 'PASS');
  assert.equal(merged.reason, undefined);
  assert.equal(merged.evidence[0]?.label, 'second use of the refresh token, re-run');
  assert.deepEqual(merged.attempts?.map((a) => [a.verdict, a.decisive]), [['ERROR', false], ['PASS', true]]);
});

test('an attempt is judged by the verdict the check gave, before any waiver; the merged check carries no waiver', () => {
  const waived = { ...singleUse('FAIL'), verdict: 'WAIVED' as const, waived: { verdict: 'FAIL' as const, waiver: { pointer: '/waivers/0', selector: { kind: 'check' as const, id: SINGLE_USE }, reason: 'r', owner: 'o', tracking: 'https://t.example', expires: '2026-12-31', expect: { verdict: 'FAIL' as const } } } };
  const merged = mergeAttempts([
    { run: FIRST_RUN, check: waived },
    { run: RE_RUN, check: singleUse('PASS') },
  ]);
  assert.equal(merged.verdict, 'FLAKY');
  assert.equal(merged.waived, undefined, 'the merge judges the waivers again over the merged run');
  assert.equal(merged.attempts?.[0]?.verdict, 'FAIL');
});

test('attempts that do not fold to the check\'s verdict, or mark another attempt decisive, are named (ptas verify asks this)', () => {
  const merged = flakyRun().checks.find((c) => c.id === SINGLE_USE)!;
  assert.equal(attemptsDisagree({ ...merged, verdict: 'PASS' }), 'its attempts (FAIL, PASS) fold to FLAKY, not PASS');
  const moved = merged.attempts!.map((a) => ({ ...a, decisive: !a.decisive }));
  assert.equal(attemptsDisagree({ ...merged, attempts: moved }), 'its decisive attempt is not attempt 1');
  assert.equal(attemptsDisagree({ verdict: 'PASS' }), undefined, 'a check without attempts has nothing to disagree with');
});

test('FLAKY makes the run NOT CONFORMANT, and the explanation says it was flaky', () => {
  const results = flakyRun();
  assert.equal(results.verdict, 'NOT CONFORMANT');
  assert.equal(results.counts.FLAKY, 1);
  assert.equal(results.counts.FAIL, 0);
  assert.equal(runVerdict({ checks: [{ verdict: 'PASS' }, { verdict: 'FLAKY' }], errors: [] }), 'NOT CONFORMANT');
  assert.equal(runVerdict({ checks: [{ verdict: 'FLAKY' }, { verdict: 'ERROR' }], errors: [] }), 'NOT CONFORMANT');
  assert.equal(
    explainRunVerdict({ checks: [{ verdict: 'FAIL' }, { verdict: 'FLAKY' }], errors: [] }),
    '2 checks found a contradiction of the spec or of the declared profile (1 of them flaky: failed in one attempt, passed in a later one)',
  );
});
