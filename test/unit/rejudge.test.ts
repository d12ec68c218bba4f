// src/results/rejudge.ts: a stored run judged again from its checks' records,
// reading no clock and sending nothing — each check by the installed
// metadata, the cross-cutting check over the same exchanges in its place,
// waivers as of when the run judged them; what cannot be judged is named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CheckResult } from '../../src/check/model.ts';
import type { CheckRecord } from '../../src/check/record.ts';
import { ERROR_BODIES_ARE_JSON } from '../../src/crosscut/error-bodies.ts';
import { rejudgeRun, verdictChanges } from '../../src/results/rejudge.ts';
import { applyWaivers } from '../../src/results/waivers.ts';
import { compareVersions, FIRST_SUITE_VERSION, requirementById } from '../../src/requirements.ts';
import { checkSince } from '../../src/check/registry.ts';
import { installedSuite } from '../../app/rejudge/rejudge.ts';
import { listAllChecks } from '../../app/run/list.ts';
import { exchange, RE_RUN } from '../support/attempt-fixtures.ts';
import { FIRST_EXPIRED_INSTANT, LANGUAGES, RENEWS, run, SINGLE_USE, SINGLE_USE_REASON, waiverFile } from '../support/waiver-fixtures.ts';

await listAllChecks();
const suite = installedSuite();

const failed: CheckRecord = { claims: [{ level: 'FAIL', message: SINGLE_USE_REASON, rests: { kind: 'sentence' }, observed: { kind: 'answer', status: 200 } }] };
const passed: CheckRecord = { claims: [] };
const withRecord = (c: CheckResult): CheckResult => ({ ...c, record: c.verdict === 'FAIL' ? failed : passed });

test('each check judged from its record by the installed catalogue: the verdict, reason and basis it gives', () => {
  const stored = run();
  const again = rejudgeRun({ ...stored, checks: stored.checks.map(withRecord) }, suite).results;
  const singleUse = again.checks.find((c) => c.id === SINGLE_USE)!;
  assert.equal(singleUse.verdict, 'FAIL');
  assert.equal(singleUse.reason, SINGLE_USE_REASON);
  assert.equal(singleUse.basis?.requirement, 'TOKEN-REFRESH-SINGLE-USE');
  assert.equal(singleUse.basis?.quote, requirementById('TOKEN-REFRESH-SINGLE-USE')!.quote);
  assert.equal(again.verdict, 'NOT CONFORMANT');
  // The stored FAIL showed no basis; judged again it rests on its requirement's quote: a change of basis alone is a change.
  assert.deepEqual(verdictChanges({ ...stored, checks: stored.checks.map(withRecord) }, again).map((c) => [c.id, c.before?.verdict, c.after?.verdict, c.after?.basis?.requirement]), [[SINGLE_USE, 'FAIL', 'FAIL', 'TOKEN-REFRESH-SINGLE-USE']]);
});

test('a transient answer a stored FAIL rested on is ERROR when judged again: the rules apply to the record, not to the stored verdict', () => {
  const stored = run();
  const transient: CheckRecord = { claims: [{ ...failed.claims[0]!, observed: { kind: 'answer', status: 503 } }] };
  const again = rejudgeRun({ ...stored, checks: stored.checks.map((c) => (c.id === SINGLE_USE ? { ...c, record: transient } : withRecord(c))) }, suite).results;
  assert.equal(again.checks.find((c) => c.id === SINGLE_USE)!.verdict, 'ERROR');
  assert.deepEqual(verdictChanges(stored, again).map((c) => [c.id, c.before?.verdict, c.after?.verdict]), [[SINGLE_USE, 'FAIL', 'ERROR']]);
});

test('waivers are judged again as of when the run judged them, never by the clock', () => {
  // Judged on 2027-01-01, when the waiver (expiring 2026-12-31) had expired: the FAIL stands, whatever today is.
  const stored = applyWaivers({ ...run(), checks: run().checks.map(withRecord) }, waiverFile({ check: SINGLE_USE }), { strict: false, now: FIRST_EXPIRED_INSTANT });
  assert.equal(stored.checks.find((c) => c.id === SINGLE_USE)!.verdict, 'FAIL');
  const again = rejudgeRun(stored, suite).results;
  assert.equal(again.checks.find((c) => c.id === SINGLE_USE)!.verdict, 'FAIL');
  assert.equal(again.waivers?.evaluatedAt, FIRST_EXPIRED_INSTANT.toISOString());
  assert.equal(again.waivers?.outcomes[0]?.status, 'expired');
});

test('what cannot be judged again is named: no record (kept), attempts (kept), a check the suite no longer has (left out)', () => {
  const stored = run({}, [{ ...run().checks[0]!, id: 'auth.retired-check', target: 'target' }]);
  const checks = stored.checks.map((c) => (c.id === RENEWS ? { ...withRecord(c), attempts: [{ run: RE_RUN, verdict: 'PASS' as const, durationMs: 1, decisive: true }] } : c.id === LANGUAGES ? withRecord(c) : c));
  const { results, notJudged } = rejudgeRun({ ...stored, checks }, suite);
  assert.deepEqual(
    notJudged.map((n) => [n.id, n.why]),
    [
      [SINGLE_USE, 'no-record'],
      ['auth.refresh-token-single-use-race', 'no-record'],
      [RENEWS, 'attempts'],
      ['auth.retired-check', 'not-in-suite'],
    ],
  );
  assert.ok(!results.checks.some((c) => c.id === 'auth.retired-check'));
  assert.deepEqual(verdictChanges({ ...stored, checks }, results).map((c) => [c.id, c.before?.verdict, c.after?.verdict]), [['auth.retired-check', 'FAIL', undefined]]);
});

test('the cross-cutting check is computed again over the same exchanges, in its place, with the profile values its record kept', () => {
  const base = run().checks.map(withRecord);
  const htmlAnswer = { ...exchange('a refused grant', 400), response: { ...exchange('a refused grant', 400).response!, headers: { 'content-type': 'text/html' }, body: '<html>no</html>', bodyBytes: 15 } };
  const withHtml = base.map((c, i) => (i === 0 ? { ...c, evidence: [htmlAnswer] } : c));
  // As an older policy judged it: PASS.
  const stale: CheckResult = { ...ERROR_BODIES_ARE_JSON, verdict: 'PASS', findings: [], evidence: [], timeline: [], target: 'target', durationMs: 0, record: { claims: [], profileValues: { baseUrl: 'https://sandbox.example.com', 'http.intermediary': null } } };
  const stored = { ...run(), checks: [...withHtml.slice(0, 2), stale, ...withHtml.slice(2)] };
  const again = rejudgeRun(stored, suite).results;
  assert.deepEqual(again.checks.map((c) => c.id), stored.checks.map((c) => c.id), 'every check in the place it had');
  const crossCut = again.checks.find((c) => c.id === ERROR_BODIES_ARE_JSON.id)!;
  assert.equal(crossCut.verdict, 'FAIL', crossCut.reason);
  assert.match(crossCut.reason!, /not JSON/);
});

test('checks newer than the suite that observed the run are named new; a check of that suite the run did not run is not', () => {
  const stored = { ...run(), checks: run().checks.map(withRecord) };
  const newer = (ids: string[]) => ({ ...suite, checks: () => suite.checks().map((c) => (ids.includes(c.id) ? { ...c, since: '0.2.0' } : c)) });
  // users.bearer-required is new in 0.2.0 and the run (by 0.1.0) never ran it; SINGLE_USE is "new" too but the run has it.
  const { newChecks } = rejudgeRun(stored, newer(['users.bearer-required', SINGLE_USE]));
  assert.deepEqual(newChecks.map((c) => [c.id, c.since]), [['users.bearer-required', '0.2.0']]);
  assert.deepEqual(rejudgeRun(stored, suite).newChecks, [], 'every check of this suite is as old as the run: those it did not run were left out by --grep, not new');
});

test('a requirement or check declaration names the version since which it is checked; the later of the two counts', () => {
  assert.equal(compareVersions('0.10.0', '0.9.1') > 0, true);
  assert.equal(compareVersions('1.0.0', '1.0') === 0, true);
  assert.equal(checkSince(SINGLE_USE), FIRST_SUITE_VERSION, 'no requirement of the first catalogue names a since');
});
