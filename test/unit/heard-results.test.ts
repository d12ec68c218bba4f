// src/run-events/heard-results.ts: a run's results are what its events told:
// each check in the order it finished, a check told again (its final
// judgment) in its first place; problems outside any check; the load stage's
// section. And load/stage/crosscut.ts judgedAgain tells which cross-cutting
// results the load stage's evidence made anew.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CheckResult } from '../../src/check/model.ts';
import { heardResults } from '../../src/run-events/heard-results.ts';
import { judgedAgain } from '../../load/stage/crosscut.ts';
import type { LoadSection } from '../../src/results/load-model.ts';

const check = (id: string, verdict: CheckResult['verdict'], target = 'target'): CheckResult => ({
  id, title: id, area: 'users', severity: 'MUST', requirements: [], target, verdict, durationMs: 1, findings: [], evidence: [], timeline: [],
});

test('checks in the order they finished; the same check told again replaces its first judgment in place; another target is another check', () => {
  const heard = heardResults();
  heard.events({ kind: 'log', line: 'not a result' });
  heard.events({ kind: 'check', check: check('users.a', 'PASS') });
  heard.events({ kind: 'check', check: check('errors.error-bodies-are-json', 'PASS') });
  heard.events({ kind: 'check', check: check('users.a', 'PASS', 'other') });
  heard.events({ kind: 'check', check: check('load.token-rate-limit', 'PASS') });
  heard.events({ kind: 'check', check: check('errors.error-bodies-are-json', 'FAIL') });
  assert.deepEqual(heard.checks().map((c) => `${c.target}/${c.id}=${c.verdict}`), [
    'target/users.a=PASS',
    'target/errors.error-bodies-are-json=FAIL',
    'other/users.a=PASS',
    'target/load.token-rate-limit=PASS',
  ]);
});

test('problems outside any check and the load section are kept as told; nothing told, nothing kept', () => {
  const heard = heardResults();
  assert.deepEqual([heard.checks(), heard.problems(), heard.load()], [[], [], undefined]);
  const load = { engine: 'embedded', startedAt: '2026-11-29T00:00:00.000Z', durationMs: 1, probes: [], profiles: [] } as LoadSection;
  heard.events({ kind: 'problem', message: 'a suite file failed to load' });
  heard.events({ kind: 'load-stage', load });
  assert.deepEqual(heard.problems(), ['a suite file failed to load']);
  assert.equal(heard.load(), load);
});

test('judgedAgain: the cross-cutting results made anew, not the checks kept as they were', () => {
  const kept = check('users.a', 'PASS');
  const first = check('errors.error-bodies-are-json', 'PASS');
  const again = check('errors.error-bodies-are-json', 'WARN');
  assert.deepEqual(judgedAgain([kept, first], [kept, again]), [again]);
  assert.deepEqual(judgedAgain([kept, first], [kept, first]), [], 'no load stage: nothing judged again');
});
