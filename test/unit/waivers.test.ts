// Waivers applied to a run (src/results/waivers.ts) and what they do to the
// verdict (src/results/verdict.ts): a waived FAIL is WAIVED and the run
// CONFORMANT WITH WAIVERS (exit 6); an expired waiver waives nothing; stale and
// unmatched waivers are reported and, under --strict-waivers, make the run
// INCOMPLETE. Expiry is judged at an injected instant, never the wall clock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Verdict } from '../../src/check/model.ts';
import { EXIT } from '../../src/exit-codes.ts';
import { validateAgainst } from '../../src/schemas/registry.ts';
import { applyWaivers, isExpired, waiverFileOf } from '../../src/results/waivers.ts';
import { exitCodeFor, explainRunVerdict, runVerdict, verdictInputOf } from '../../src/results/verdict.ts';
import type { RunResults } from '../../src/results/model.ts';
import { buildResults } from '../../src/results/build.ts';
import {
  check,
  FIRST_EXPIRED_INSTANT,
  LANGUAGES,
  LAST_VALID_INSTANT,
  RENEWS,
  run,
  SINGLE_USE,
  SINGLE_USE_RACE,
  SINGLE_USE_REASON,
  waiverFile,
} from '../support/waiver-fixtures.ts';

const lenient = { strict: false, now: LAST_VALID_INSTANT };
const strict = { strict: true, now: LAST_VALID_INSTANT };
const byId = (results: RunResults, id: string) => results.checks.find((c) => c.id === id)!;
const explain = (results: RunResults) => explainRunVerdict(verdictInputOf(results));
const schemaErrors = (results: RunResults) => validateAgainst('results.schema.json', results).map((e) => `${e.instancePath} ${e.message}`);

test('a waived FAIL is WAIVED, keeps the verdict and reason it gave and names its waiver; the run is CONFORMANT WITH WAIVERS, exit 6', () => {
  const before = run();
  assert.equal(before.verdict, 'NOT CONFORMANT', 'without the waiver the FAIL decides');
  const file = waiverFile({ check: SINGLE_USE });
  const after = applyWaivers(before, file, lenient);
  const waived = byId(after, SINGLE_USE);
  assert.equal(waived.verdict, 'WAIVED');
  assert.equal(waived.reason, SINGLE_USE_REASON, 'the reason stays the check’s own');
  assert.deepEqual(waived.waived, { verdict: 'FAIL', waiver: file.waivers[0] });
  assert.equal(after.verdict, 'CONFORMANT WITH WAIVERS');
  assert.equal(after.counts.WAIVED, 1);
  assert.equal(after.counts.FAIL, 0);
  assert.equal(exitCodeFor(after.verdict, false), EXIT.CONFORMANT_WITH_WAIVERS);
  assert.equal(EXIT.CONFORMANT_WITH_WAIVERS, 6);
  assert.match(explain(after), /^1 check waived \(known failures with an owner and an expiry\); no other check found a contradiction of the spec/);
  assert.deepEqual(after.waivers?.outcomes.map((o) => [o.status, o.checks]), [['applied', [{ target: 'target', id: SINGLE_USE, verdict: 'FAIL' }]]]);
  assert.equal(after.waivers?.evaluatedAt, LAST_VALID_INSTANT.toISOString());
  assert.deepEqual(before.checks[0]!.verdict, 'FAIL', 'pure: the results given are not changed');
  assert.deepEqual(schemaErrors(after), []);
});

test('a waiver applies through its last UTC day and not a millisecond longer: then the FAIL stays, NOT CONFORMANT, reported expired', () => {
  const file = waiverFile({ check: SINGLE_USE, expires: '2026-12-31' });
  assert.equal(isExpired(file.waivers[0]!, LAST_VALID_INSTANT), false);
  assert.equal(isExpired(file.waivers[0]!, FIRST_EXPIRED_INSTANT), true);
  assert.equal(applyWaivers(run(), file, { strict: false, now: LAST_VALID_INSTANT }).verdict, 'CONFORMANT WITH WAIVERS');

  const expired = applyWaivers(run(), file, { strict: false, now: FIRST_EXPIRED_INSTANT });
  assert.equal(byId(expired, SINGLE_USE).verdict, 'FAIL');
  assert.equal(byId(expired, SINGLE_USE).waived, undefined);
  assert.equal(expired.verdict, 'NOT CONFORMANT');
  assert.equal(exitCodeFor(expired.verdict, false), EXIT.NOT_CONFORMANT);
  const [outcome] = expired.waivers!.outcomes;
  assert.equal(outcome!.status, 'expired');
  assert.deepEqual(outcome!.checks, [{ target: 'target', id: SINGLE_USE, verdict: 'FAIL' }], 'the check it no longer waives');
  assert.match(outcome!.note, /expired at the end of 2026-12-31 \(UTC\): 1 check it would waive keeps FAIL/);
  assert.deepEqual(schemaErrors(expired), []);
});

test('an expired waiver is not a strict-waivers problem: the FAIL it no longer covers decides the verdict', () => {
  const expired = applyWaivers(run(), waiverFile({ check: SINGLE_USE, expires: '2026-06-30' }), strict);
  assert.equal(expired.verdict, 'NOT CONFORMANT');
  assert.equal(verdictInputOf(expired).waiverProblems?.length, 0);
});

test('a stale waiver (its check now passes) is reported; under --strict-waivers the run is INCOMPLETE with its own explanation', () => {
  const fixed = run({ [SINGLE_USE]: 'PASS' });
  const file = waiverFile({ check: SINGLE_USE });
  const reported = applyWaivers(fixed, file, lenient);
  assert.equal(reported.verdict, 'CONFORMANT', 'not strict: reported, the verdict unchanged');
  const [outcome] = reported.waivers!.outcomes;
  assert.equal(outcome!.status, 'stale');
  assert.deepEqual(outcome!.checks, [{ target: 'target', id: SINGLE_USE, verdict: 'PASS' }]);
  assert.match(outcome!.note, /gave PASS instead of the expected FAIL: remove the waiver/);

  const failed = applyWaivers(fixed, file, strict);
  assert.equal(failed.verdict, 'INCOMPLETE');
  assert.equal(exitCodeFor(failed.verdict, false), EXIT.INCOMPLETE);
  assert.equal(explain(failed), '1 waiver no longer matches this run (stale or unmatched) and --strict-waivers is on: update the waiver file');
  assert.deepEqual(schemaErrors(failed), []);
});

test('an unmatched waiver (it selects no check of the run) is reported; under --strict-waivers the run is INCOMPLETE', () => {
  const file = waiverFile({ check: SINGLE_USE }, { check: 'users.no-such-check' });
  const reported = applyWaivers(run(), file, lenient);
  assert.equal(reported.verdict, 'CONFORMANT WITH WAIVERS');
  assert.deepEqual(
    reported.waivers!.outcomes.map((o) => o.status),
    ['applied', 'unmatched'],
  );
  assert.deepEqual(reported.waivers!.outcomes[1]!.checks, []);
  assert.match(reported.waivers!.outcomes[1]!.note, /no check of this run is selected by check "users.no-such-check"/);

  const failed = applyWaivers(run(), file, strict);
  assert.equal(failed.verdict, 'INCOMPLETE');
  assert.equal(byId(failed, SINGLE_USE).verdict, 'WAIVED', 'the other waiver still applies');
  assert.match(explain(failed), /^1 waiver no longer matches this run .*; 1 check waived/);
});

test('under --strict-waivers a run whose waivers all apply stays CONFORMANT WITH WAIVERS', () => {
  assert.equal(applyWaivers(run(), waiverFile({ check: SINGLE_USE }), strict).verdict, 'CONFORMANT WITH WAIVERS');
});

test('a requirement selector waives every check of that requirement that gives the expected failure, and no other', () => {
  const results = run({ [SINGLE_USE_RACE]: 'FAIL', [RENEWS]: 'FAIL' });
  const after = applyWaivers(results, waiverFile({ requirement: 'TOKEN-REFRESH-SINGLE-USE' }), lenient);
  assert.equal(byId(after, SINGLE_USE).verdict, 'WAIVED');
  assert.equal(byId(after, SINGLE_USE_RACE).verdict, 'WAIVED');
  assert.equal(byId(after, RENEWS).verdict, 'FAIL', 'another requirement');
  assert.equal(after.verdict, 'NOT CONFORMANT');
  assert.deepEqual(after.waivers!.outcomes[0]!.checks.map((c) => c.id), [SINGLE_USE, SINGLE_USE_RACE]);

  const onlyThese = applyWaivers(run({ [SINGLE_USE_RACE]: 'FAIL' }), waiverFile({ requirement: 'TOKEN-REFRESH-SINGLE-USE' }), lenient);
  assert.equal(onlyThese.verdict, 'CONFORMANT WITH WAIVERS');
  assert.match(explain(onlyThese), /^2 checks waived/);
});

test('a check selector waives that check on every target', () => {
  const results = run({}, [check(SINGLE_USE, ['TOKEN-REFRESH-SINGLE-USE'], 'FAIL', SINGLE_USE_REASON, 'second')]);
  const after = applyWaivers(results, waiverFile({ check: SINGLE_USE }), lenient);
  assert.deepEqual(after.checks.filter((c) => c.id === SINGLE_USE).map((c) => [c.target, c.verdict]), [['target', 'WAIVED'], ['second', 'WAIVED']]);
});

test('expect.reason that the check’s reason does not contain leaves the FAIL, and the waiver is stale', () => {
  const after = applyWaivers(run(), waiverFile({ check: SINGLE_USE, expect: { verdict: 'FAIL', reason: 'answered 500' } }), lenient);
  assert.equal(byId(after, SINGLE_USE).verdict, 'FAIL');
  assert.equal(after.verdict, 'NOT CONFORMANT');
  assert.equal(after.waivers!.outcomes[0]!.status, 'stale');
  assert.match(after.waivers!.outcomes[0]!.note, /FAIL, but not with "answered 500" in the reason/);

  const matching = applyWaivers(run(), waiverFile({ check: SINGLE_USE, expect: { verdict: 'FAIL', reason: 'was accepted' } }), lenient);
  assert.equal(byId(matching, SINGLE_USE).verdict, 'WAIVED', 'the same waiver with text the reason holds applies');
});

test('a waiver expecting another verdict leaves the check as it is', () => {
  const after = applyWaivers(run(), waiverFile({ check: SINGLE_USE, expect: { verdict: 'ERROR' } }), lenient);
  assert.equal(byId(after, SINGLE_USE).verdict, 'FAIL');
  assert.equal(after.waivers!.outcomes[0]!.status, 'stale');
});

test('a waived ERROR no longer leaves the run INCOMPLETE; a waived WARN is disclosed in the verdict', () => {
  const erroring = applyWaivers(run({ [SINGLE_USE]: 'ERROR' }), waiverFile({ check: SINGLE_USE, expect: { verdict: 'ERROR' } }), lenient);
  assert.equal(erroring.verdict, 'CONFORMANT WITH WAIVERS');
  assert.equal(byId(erroring, SINGLE_USE).waived?.verdict, 'ERROR');
  const warning = applyWaivers(run({ [SINGLE_USE]: 'PASS', [LANGUAGES]: 'WARN' }), waiverFile({ check: LANGUAGES, expect: { verdict: 'WARN' } }), lenient);
  assert.equal(warning.verdict, 'CONFORMANT WITH WAIVERS');
});

test('two waivers for one failing check: the first in the file is the one the check names, both are applied', () => {
  const file = waiverFile({ check: SINGLE_USE, owner: 'first' }, { requirement: 'TOKEN-REFRESH-SINGLE-USE', owner: 'second' });
  const after = applyWaivers(run(), file, lenient);
  assert.equal(byId(after, SINGLE_USE).waived?.waiver.owner, 'first');
  assert.deepEqual(after.waivers!.outcomes.map((o) => o.status), ['applied', 'applied']);
});

test('applying again judges the verdicts the checks gave: a later date expires what an earlier one waived', () => {
  const file = waiverFile({ check: SINGLE_USE });
  const once = applyWaivers(run(), file, lenient);
  const again = applyWaivers(once, file, { strict: false, now: FIRST_EXPIRED_INSTANT });
  assert.equal(byId(again, SINGLE_USE).verdict, 'FAIL');
  assert.equal(byId(again, SINGLE_USE).waived, undefined);
  assert.equal(again.verdict, 'NOT CONFORMANT');
  assert.deepEqual(applyWaivers(once, file, lenient), once, 'same input, same answer');
});

test('an interrupted run stays INCOMPLETE whatever it waived', () => {
  const results = run();
  results.run.interrupted = 'interrupted (SIGINT)';
  const after = applyWaivers(results, waiverFile({ check: SINGLE_USE }), lenient);
  assert.equal(after.verdict, 'INCOMPLETE');
  assert.equal(exitCodeFor(after.verdict, true), EXIT.INTERRUPTED);
});

test('the policy: WAIVED beside a FAIL is NOT CONFORMANT, beside an ERROR INCOMPLETE, alone CONFORMANT WITH WAIVERS', () => {
  const checks = (...verdicts: Verdict[]) => verdicts.map((verdict) => ({ verdict }));
  assert.equal(runVerdict({ checks: checks('PASS', 'WAIVED', 'WARN'), errors: [] }), 'CONFORMANT WITH WAIVERS');
  assert.equal(runVerdict({ checks: checks('WAIVED', 'FAIL'), errors: [] }), 'NOT CONFORMANT');
  assert.match(explainRunVerdict({ checks: checks('WAIVED', 'FAIL'), errors: [] }), /^1 check found a contradiction .*; 1 check waived/);
  assert.equal(runVerdict({ checks: checks('WAIVED', 'ERROR'), errors: [] }), 'INCOMPLETE');
  assert.equal(runVerdict({ checks: checks('WAIVED'), errors: [], waiverProblems: ['stale waiver'] }), 'INCOMPLETE');
  assert.equal(runVerdict({ checks: checks('PASS'), errors: [] }), 'CONFORMANT', 'no waiver, no change');
});

test('in one part of a sharded run an unmatched waiver does not fail it; judged again over the merged checks, it applies', () => {
  const whole = run();
  const waivers = { ...waiverFile({ check: SINGLE_USE }), sha256: 'b'.repeat(64) };
  const part = (index: number, ids: string[]) =>
    buildResults({ run: { ...whole.run, shard: { index, total: 2 } }, checks: whole.checks.filter((c) => ids.includes(c.id)), errors: [] });
  const first = applyWaivers(part(1, [RENEWS, LANGUAGES]), waivers, strict);
  assert.equal(first.waivers!.outcomes[0]!.status, 'unmatched');
  assert.match(first.waivers!.outcomes[0]!.note, /may be in another part of this sharded run/);
  assert.equal(first.verdict, 'CONFORMANT', 'not INCOMPLETE: the check ran in the other part');
  const unsharded = applyWaivers(buildResults({ run: whole.run, checks: first.checks, errors: [] }), waivers, strict);
  assert.equal(unsharded.verdict, 'INCOMPLETE', 'the same unmatched waiver in a whole run fails it');

  const second = applyWaivers(part(2, [SINGLE_USE, SINGLE_USE_RACE]), waivers, strict);
  assert.equal(second.verdict, 'CONFORMANT WITH WAIVERS');
  const merged = buildResults({ run: whole.run, checks: [...first.checks, ...second.checks], errors: [] });
  const judged = applyWaivers(merged, waiverFileOf(first.waivers!), { strict: first.waivers!.strict, now: new Date(second.waivers!.evaluatedAt) });
  assert.deepEqual(judged.waivers!.outcomes.map((o) => o.status), ['applied']);
  assert.equal(judged.verdict, 'CONFORMANT WITH WAIVERS');
  assert.equal(judged.waivers!.sha256, 'b'.repeat(64));
});
