// Certifiable is part of the verdict (issue 30): the statement a run makes
// about its bundle and `ptas verify`'s required-check step come from one
// function, so they agree on a certifiable run and on every reason not to be.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { certifiability, certificationLines } from '../../src/certify/certifiability.ts';
import { verifyRequiredChecks } from '../../app/verify/agreement.ts';
import type { Manifest } from '../../src/certify/manifest.ts';
import type { CheckResult, Verdict } from '../../src/check/model.ts';
import type { RunResults } from '../../src/results/model.ts';
import { renderBanner } from '../../reports/html/banner.ts';
import { terminalSummary } from '../../reports/terminal.ts';
import { completeResults } from '../report/support/complete.ts';

const REQUIRED = ['auth.tokens-are-jwts', 'trading.accepted-202-reaches-terminal-status', 'load.token-rate-limit'];

function check(id: string, verdict: Verdict, extra: Partial<CheckResult> = {}): CheckResult {
  return { ...(completeResults.checks[0] as unknown as CheckResult), id, verdict, target: 'target', ...extra };
}

const manifest = { requiredChecks: REQUIRED, catalogue: { sha256: 'other', specVersion: 'x' } } as unknown as Manifest;
const catalogue = { sha256: 'this', requiredChecks: REQUIRED };

function results(checks: CheckResult[]): RunResults {
  return { ...(completeResults as unknown as RunResults), checks, certification: undefined };
}

const cases: Array<[string, CheckResult[], RegExp, RegExp]> = [
  ['a required check not run (--no-load)', [check(REQUIRED[0]!, 'PASS'), check(REQUIRED[1]!, 'PASS')], /load\.token-rate-limit has no verdict/, /leave out --no-load/],
  ['a required check SKIPped for a missing key', [check(REQUIRED[0]!, 'PASS'), check(REQUIRED[1]!, 'SKIP', { reason: 'no poll deadline', configKey: 'trading.pollDeadlineMs' }), check(REQUIRED[2]!, 'PASS')], /was skipped \(no poll deadline\)/, /set trading\.pollDeadlineMs in the profile/],
  ['a required check ERROR', [check(REQUIRED[0]!, 'ERROR', { reason: 'only 503s came' }), check(REQUIRED[1]!, 'PASS'), check(REQUIRED[2]!, 'PASS')], /auth\.tokens-are-jwts is ERROR \(only 503s came\)/, /run again/],
  ['a required check with two verdicts', [check(REQUIRED[0]!, 'PASS'), check(REQUIRED[0]!, 'FAIL'), check(REQUIRED[1]!, 'PASS'), check(REQUIRED[2]!, 'PASS')], /has 2 verdicts, not one/, /ptas merge/],
];

test('certifiable: every required check has one verdict, none SKIP or ERROR; verify agrees, and a FAIL is still certifiable (NOT CONFORMANT, certified)', () => {
  const checks = [check(REQUIRED[0]!, 'FAIL'), check(REQUIRED[1]!, 'PASS'), check(REQUIRED[2]!, 'WARN'), check('users.extra', 'SKIP')];
  const certification = certifiability({ checks }, REQUIRED);
  assert.deepEqual(certification, { certifiable: true, required: 3, gaps: [] });
  const step = verifyRequiredChecks(manifest, { ...results(checks), certification }, catalogue);
  assert.equal(step.ok, true, step.detail);
  assert.match(certificationLines(certification)[0]!, /^certifiable: all 3 required checks/);
});

for (const [what, checks, problem, fix] of cases) {
  test(`not certifiable, and verify refuses on the same gap: ${what}`, () => {
    const certification = certifiability({ checks }, REQUIRED);
    assert.equal(certification.certifiable, false);
    assert.equal(certification.gaps.length, 1);
    const [gap] = certification.gaps;
    assert.match(gap!.problem, problem);
    assert.match(gap!.fix, fix);
    const step = verifyRequiredChecks(manifest, results(checks), catalogue);
    assert.equal(step.ok, false);
    assert.equal(step.detail, `results.json: ${gap!.problem} (fix: ${gap!.fix})`);
    // Every rendering says it, with the fix.
    const shown = { ...results(checks), certification };
    assert.ok(terminalSummary(shown).includes(`NOT CERTIFIABLE: ptas verify refuses the bundle: 1 of 3 required checks\n    ${gap!.problem}: ${gap!.fix}`));
    assert.match(renderBanner(shown), /id="notice-certification" data-certifiable="false"/);
  });
}

test("a results.json whose stated certification is not what its checks give is refused by verify", () => {
  const checks = [check(REQUIRED[0]!, 'PASS'), check(REQUIRED[1]!, 'PASS'), check(REQUIRED[2]!, 'PASS')];
  const claimed = { certifiable: true, required: 4, gaps: [] };
  const step = verifyRequiredChecks(manifest, { ...results(checks), certification: claimed }, catalogue);
  assert.equal(step.ok, false);
  assert.match(step.detail, /its "certification" is not what its checks give/);
});

test('many gaps: the first five with their fixes, then how many more', () => {
  const required = Array.from({ length: 8 }, (_, i) => `area.check-${i}`);
  const lines = certificationLines(certifiability({ checks: [check(required[0]!, 'SKIP')] }, required));
  assert.equal(lines.length, 7);
  assert.match(lines.at(-1)!, /… and 3 more/);
});

test('no required check ran at all (an exploration alone): one line says so, not a list of every check', () => {
  const required = Array.from({ length: 8 }, (_, i) => `area.check-${i}`);
  const lines = certificationLines(certifiability({ checks: [check('explore.area.rule', 'PASS')] }, required));
  assert.deepEqual(lines, ['NOT CERTIFIABLE: none of the 8 required checks ran (an exploration or a --grep run certifies nothing): run ptas run, with --explore to explore in the same run']);
});
