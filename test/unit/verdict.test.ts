// The verdict policy (src/results/verdict.ts): the one fold of check verdicts
// into a run verdict, its one-line explanation and the exit code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Verdict } from '../../src/check/model.ts';
import { EXIT } from '../../src/exit-codes.ts';
import { exitCodeFor, explainRunVerdict, runVerdict } from '../../src/results/verdict.ts';

const checks = (...verdicts: Verdict[]) => verdicts.map((verdict) => ({ verdict }));

test('a FAIL makes the run NOT CONFORMANT, also beside ERRORs', () => {
  assert.equal(runVerdict({ checks: checks('PASS', 'FAIL'), errors: [] }), 'NOT CONFORMANT');
  assert.equal(runVerdict({ checks: checks('ERROR', 'FAIL', 'WARN'), errors: [] }), 'NOT CONFORMANT');
});

test('an ERROR without a FAIL makes the run INCOMPLETE, never NOT CONFORMANT', () => {
  assert.equal(runVerdict({ checks: checks('PASS', 'ERROR'), errors: [] }), 'INCOMPLETE');
  assert.match(explainRunVerdict({ checks: checks('PASS', 'ERROR'), errors: [] }), /1 check could not run/);
});

test('WARN, REVIEW and SKIP leave a run CONFORMANT', () => {
  assert.equal(runVerdict({ checks: checks('PASS', 'WARN', 'REVIEW', 'SKIP'), errors: [] }), 'CONFORMANT');
  assert.match(explainRunVerdict({ checks: checks('PASS', 'WARN', 'REVIEW', 'SKIP'), errors: [] }), /1 warning, 1 to review, 1 skipped/);
});

test('an interrupted run, a load error or no check at all is INCOMPLETE', () => {
  assert.equal(runVerdict({ checks: checks('FAIL'), interrupted: 'SIGINT', errors: [] }), 'INCOMPLETE');
  assert.equal(runVerdict({ checks: checks('PASS'), errors: ['suites/x.check.ts did not load'] }), 'INCOMPLETE');
  assert.equal(runVerdict({ checks: [], errors: [] }), 'INCOMPLETE');
});

test('exit codes: 0 conformant, 1 not conformant, 5 incomplete, 130 interrupted', () => {
  assert.equal(exitCodeFor('CONFORMANT', false), EXIT.CONFORMANT);
  assert.equal(exitCodeFor('NOT CONFORMANT', false), EXIT.NOT_CONFORMANT);
  assert.equal(exitCodeFor('INCOMPLETE', false), EXIT.INCOMPLETE);
  assert.equal(EXIT.INCOMPLETE, 5);
  assert.equal(exitCodeFor('INCOMPLETE', true), EXIT.INTERRUPTED);
});
