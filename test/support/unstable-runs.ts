// Runs of one implementation in which one check gives two verdicts, for the
// tests of unstable checks (src/results/instability.ts, `ptas serve`, the
// console, `ptas report --history`): real check and requirement ids, so the
// FAIL's basis quotes the catalogue, and each check with its record and
// evidence as a run writes them.
import { verdictBasis } from '../../src/check/basis.ts';
import type { CheckResult } from '../../src/check/model.ts';
import { buildResults } from '../../src/results/build.ts';
import type { RunMetadata, RunResults } from '../../src/results/model.ts';

/** The check whose verdict the runs vary. */
export const UNSTABLE = 'auth.refresh-token-single-use';
/** A check that passes in every run. */
export const STEADY = 'auth.refresh-renews-access-token';
export const UNSTABLE_REASON = 'the used refresh token was accepted again: 200';
export const PASS_CLAIM = 'the used refresh token was refused: 400';

export interface RunShape {
  startedAt: string;
  /** The verdict of UNSTABLE in this run. */
  verdict: 'PASS' | 'FAIL';
  suiteVersion?: string;
  profileHash?: string;
  /** A run of the bundled reference under these options. */
  reference?: RunMetadata['reference'];
  /** The implementation's name (what `ptas serve` recognises a run's implementation by when indexing a bundle). */
  implementation?: string;
}

const TARGET = 'https://sandbox.acme.example';

function singleUse(verdict: 'PASS' | 'FAIL', target: string): CheckResult {
  const requirements = ['TOKEN-REFRESH-SINGLE-USE'];
  const failed = verdict === 'FAIL';
  const status = failed ? 200 : 400;
  return {
    id: UNSTABLE,
    title: 'A refresh token is single-use',
    area: 'auth',
    requirements,
    severity: 'MUST',
    verdict,
    ...(failed ? { reason: UNSTABLE_REASON, basis: verdictBasis(requirements) } : {}),
    findings: [],
    evidence: [
      {
        id: 1,
        label: 'refresh with the used refresh token',
        startedAt: '2027-01-01T21:00:00.000Z',
        durationMs: 4,
        request: { method: 'POST', url: `${target}/v1/oauth/token`, headers: {}, bodyBytes: 80 },
        response: { status, headers: {}, bodyBytes: 40, truncated: false },
        curl: `curl -sS -X POST '${target}/v1/oauth/token'`,
      },
    ],
    timeline: [],
    record: { claims: failed ? [{ level: 'FAIL', message: UNSTABLE_REASON, rests: { kind: 'sentence' } }] : [{ level: 'INFO', message: PASS_CLAIM }] },
    target,
    durationMs: 30,
  };
}

/** STEADY as a run gives it: a PASS, with its (empty) record. */
export function steadyCheck(target: string): CheckResult {
  return {
    id: STEADY,
    title: 'A refresh renews the access token',
    area: 'auth',
    requirements: ['TOKEN-REFRESH-RENEWS'],
    severity: 'MUST',
    verdict: 'PASS',
    findings: [],
    evidence: [],
    timeline: [],
    record: { claims: [] },
    target,
    durationMs: 20,
  };
}

/** A run's results: UNSTABLE with the shape's verdict, STEADY passing. */
export function unstableRun(shape: RunShape): RunResults {
  const target = shape.reference ? 'http://127.0.0.1:40123' : TARGET;
  return buildResults({
    run: {
      target,
      ...(shape.implementation ? { implementation: shape.implementation } : {}),
      suiteVersion: shape.suiteVersion ?? '0.1.0',
      specVersion: 'service-spec.md sha256:b214d7eb74ab',
      profileHash: shape.profileHash ?? 'sha256:0123456789ab',
      startedAt: shape.startedAt,
      finishedAt: shape.startedAt,
      durationMs: 60_000,
      ...(shape.reference ? { reference: shape.reference } : {}),
      insecureTls: false,
    },
    checks: [singleUse(shape.verdict, target), steadyCheck(target)],
  });
}
