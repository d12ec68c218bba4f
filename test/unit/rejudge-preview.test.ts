// src/results/rejudge-preview.ts: what judging a stored run again with the
// installed suite changes, as a lab planning an upgrade reads it — the run's
// verdict and certifiability before and after, each changed check with both
// bases, and which checks are new in this suite version (by the catalogue's
// `since`), in the changed checks and in the certification's gaps alike.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { installedSuite } from '../../app/rejudge/rejudge.ts';
import { requiredCheckIds } from '../../app/certify/required-checks.ts';
import { listAllChecks } from '../../app/run/list.ts';
import { previewRejudged } from '../../src/results/rejudge-preview.ts';
import type { JudgingSuite } from '../../src/results/rejudge.ts';
import { FLIP_REASON, FLIPPED, OLD_PROFILE_KEY, STEADY, storedRun, type StoredRunShape } from '../support/rejudge-runs.ts';

await listAllChecks();
const suite = installedSuite();
const required = await requiredCheckIds();
const SENTENCE = /^spec 4\.1 rule 2, 5 rule 2: "It is exchanged with client_id for a new access token, and each refresh token is single-use\."$/;
const NEWER = 'users.bearer-required';

const shape = (more: Partial<StoredRunShape>): StoredRunShape => ({ startedAt: '2027-01-01T21:00:00.000Z', implementation: 'Acme Payments', flipped: 'agreed', ...more });
/** The installed suite with these checks first run by 0.2.0. */
const newerSuite = (ids: string[]): JudgingSuite => ({ ...suite, checks: () => suite.checks().map((c) => (ids.includes(c.id) ? { ...c, since: '0.2.0' } : c)) });

test('a check stored WARN whose record claims a FAIL on a MUST sentence: the verdict flips, a changed judgment (not new), with the basis it now rests on', () => {
  const preview = previewRejudged(storedRun(shape({ flipped: 'warn-over-fail' })), suite, required);
  assert.equal(preview.change, 'verdict');
  assert.deepEqual(preview.verdict, { before: 'CONFORMANT', after: 'NOT CONFORMANT' });
  assert.equal(preview.judgedBy, '0.1.0');
  const [check, ...others] = preview.checks;
  assert.deepEqual(others, [], 'the check that kept its verdict is not listed');
  assert.deepEqual([check!.id, check!.new, check!.since, check!.before, check!.after?.verdict, check!.after?.reason], [FLIPPED, false, '0.1.0', { verdict: 'WARN', reason: FLIP_REASON }, 'FAIL', FLIP_REASON]);
  assert.match(check!.after!.basis!, SENTENCE);
  assert.deepEqual(preview.newChecks, []);
});

test('the same FAIL on another basis changes a check, not the verdict; a run its records agree with changes nothing', () => {
  const basisOnly = previewRejudged(storedRun(shape({ flipped: 'fail-on-profile' })), suite, required);
  assert.equal(basisOnly.change, 'checks');
  assert.deepEqual(basisOnly.verdict, { before: 'NOT CONFORMANT', after: 'NOT CONFORMANT' });
  assert.match(basisOnly.checks[0]!.before!.basis!, new RegExp(`^profile-declared ${OLD_PROFILE_KEY.replace('.', '\\.')} = true; spec 4\\.1`));
  assert.match(basisOnly.checks[0]!.after!.basis!, SENTENCE);

  const agreed = previewRejudged(storedRun(shape({})), suite, required);
  assert.equal(agreed.change, 'none');
  assert.deepEqual(agreed.checks, []);
  assert.deepEqual(agreed.certifiable, { before: null, after: false }, 'a run that recorded no certifiability: no change of it can be told');
});

test('a check newer than the suite that judged the run: in the new checks, its certification gap marked new and saying so; certifiable before, not after', () => {
  const stored = storedRun(shape({ certification: { certifiable: true, required: 2, gaps: [] } }));
  const preview = previewRejudged(stored, newerSuite([NEWER]), required);
  assert.equal(preview.change, 'verdict', 'certifiability changes, the verdict does not');
  assert.deepEqual(preview.verdict, { before: 'CONFORMANT', after: 'CONFORMANT' });
  assert.deepEqual(preview.certifiable, { before: true, after: false });
  assert.deepEqual(preview.newChecks.map((c) => [c.id, c.since]), [[NEWER, '0.2.0']]);
  const gap = preview.gaps.find((g) => g.check === NEWER)!;
  assert.deepEqual(gap, { check: NEWER, problem: `required check ${NEWER} is new in 0.2.0: this run never observed it`, fix: 'run the implementation again with this suite', since: '0.2.0', new: true });
  const older = preview.gaps.find((g) => g.check !== NEWER)!;
  assert.equal(older.new, false, 'a required check as old as the run, left out of it, is no new check');
  assert.match(older.problem, /has no verdict/);
});

test('a changed check the catalogue says is newer than the run’s suite is marked new in the diff', () => {
  const preview = previewRejudged(storedRun(shape({ flipped: 'warn-over-fail' })), newerSuite([FLIPPED]), required);
  assert.deepEqual(preview.checks.map((c) => [c.id, c.new, c.since]), [[FLIPPED, true, '0.2.0']]);
  assert.deepEqual(preview.newChecks, [], 'the run observed it: not among the checks never observed');
});

test('checks that cannot be judged again are counted by why, each why in words', () => {
  const stored = storedRun(shape({}));
  const withoutRecord = { ...stored, checks: stored.checks.map((c) => (c.id === STEADY ? { ...c, record: undefined } : c)) };
  const preview = previewRejudged(withoutRecord, suite, required);
  assert.deepEqual(preview.notJudged.map((n) => [n.why, n.checks]), [['no-record', [STEADY]]]);
  assert.match(preview.notJudged[0]!.description, /recorded before checks kept their record/);
  assert.equal(preview.change, 'none', 'kept as it was: nothing changes');
});
