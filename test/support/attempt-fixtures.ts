// Checks of a part that ran twice, for the attempt tests (test/unit/attempts.test.ts,
// test/report/flaky-*.test.ts): two runs of part 2/2, and a run in which
// auth.refresh-token-single-use FAILed in the first and passed in the second,
// merged by the policy of src/results/attempts.ts.
import type { CheckResult } from '../../src/check/model.ts';
import { verdictBasis } from '../../src/check/basis.ts';
import type { RecordedExchange } from '../../src/http/exchange.ts';
import { mergeAttempts, type PartRun } from '../../src/results/attempts.ts';
import { buildResults } from '../../src/results/build.ts';
import type { RunResults } from '../../src/results/model.ts';
import { check, run, SINGLE_USE, SINGLE_USE_REASON } from './waiver-fixtures.ts';

export const FIRST_RUN: PartRun = { index: 2, total: 2, attempt: 1, startedAt: '2026-12-31T21:00:00.000Z', manifestSha256: '1'.repeat(64) };
export const RE_RUN: PartRun = { index: 2, total: 2, attempt: 2, startedAt: '2026-12-31T23:30:00.000Z', manifestSha256: '2'.repeat(64) };

export function exchange(label: string, status: number): RecordedExchange {
  return {
    id: 1,
    label,
    startedAt: '2026-12-31T21:00:01.000Z',
    durationMs: 8,
    request: { method: 'POST', url: 'https://sandbox.example.com/v1/oauth/token', headers: { 'content-type': 'application/json' }, body: '{"grant_type":"refresh_token"}', bodyBytes: 30 },
    response: { status, headers: { 'content-type': 'application/json' }, body: '{"access_token":"«access_token#1»"}', bodyBytes: 40, truncated: false },
    curl: "curl -sS -X POST 'https://sandbox.example.com/v1/oauth/token'",
  };
}

/** auth.refresh-token-single-use as it FAILed (with its basis and the exchange that shows it) or PASSed. */
export function singleUse(verdict: 'FAIL' | 'PASS'): CheckResult {
  const requirements = ['TOKEN-REFRESH-SINGLE-USE'];
  if (verdict === 'PASS') return { ...check(SINGLE_USE, requirements, 'PASS'), evidence: [exchange('second use of the refresh token, re-run', 400)] };
  return { ...check(SINGLE_USE, requirements, 'FAIL', SINGLE_USE_REASON), basis: verdictBasis(requirements), evidence: [exchange('second use of the refresh token', 200)] };
}

/** The run with auth.refresh-token-single-use FAILing in attempt 1 and passing in attempt 2: FLAKY. */
export function flakyRun(): RunResults {
  const flaky = mergeAttempts([
    { run: FIRST_RUN, check: singleUse('FAIL') },
    { run: RE_RUN, check: singleUse('PASS') },
  ]);
  const base = run({ [SINGLE_USE]: 'PASS' });
  return buildResults({
    run: { ...base.run, mergedFrom: [{ index: 1, total: 2, attempt: 1, startedAt: base.run.startedAt, manifestSha256: '0'.repeat(64) }, FIRST_RUN, RE_RUN] },
    checks: base.checks.map((c) => (c.id === SINGLE_USE ? flaky : c)),
  });
}
