// Stored runs for the tests of "Re-judge stored runs with this version"
// (`ptas serve`'s GET /api/rejudge-preview and its console page): real check
// and requirement ids, so the installed suite judges each check's record as
// a run's would be, and a check stored with a verdict its record does not
// give shows what a suite with other rules judged.
import { declaredBasis } from '../../src/check/basis.ts';
import type { CheckResult } from '../../src/check/model.ts';
import { buildResults } from '../../src/results/build.ts';
import type { Certification } from '../../src/results/certification-model.ts';
import type { RunResults } from '../../src/results/model.ts';
import { STEADY, steadyCheck } from './unstable-runs.ts';

/** The check whose stored verdict the runs vary (requirement TOKEN-REFRESH-SINGLE-USE, a MUST). */
export const FLIPPED = 'auth.refresh-token-single-use';
/** A check that passes in every run, stored and judged again alike. */
export { STEADY };
export const FLIP_REASON = 'the used refresh token was accepted again: 200';
/** The profile key a stored FAIL rested on before this suite rested it on the spec's sentence. */
export const OLD_PROFILE_KEY = 'auth.refreshTokenReuse';

/**
 * How FLIPPED was stored:
 * - `agreed`: PASS, as its record judges;
 * - `warn-over-fail`: WARN, while its record claims a FAIL on its requirement's sentence (a MUST): judged again, a FAIL;
 * - `fail-on-profile`: FAIL resting on a profile key, while its record rests it on the sentence: judged again, the same FAIL on another basis.
 */
export type Stored = 'agreed' | 'warn-over-fail' | 'fail-on-profile';

export interface StoredRunShape {
  startedAt: string;
  /** The implementation's name (what `ptas serve` recognises a run's implementation by when indexing a bundle). */
  implementation: string;
  flipped: Stored;
  /** The suite version that judged the run; default 0.1.0, the installed suite's. */
  suiteVersion?: string;
  /** Whether `ptas verify` accepted the run, as the suite that judged it said; default: no certification recorded. */
  certification?: Certification;
}

const TARGET = 'https://sandbox.acme.example';
const REQUIREMENTS = ['TOKEN-REFRESH-SINGLE-USE'];

function flippedCheck(stored: Stored): CheckResult {
  const failClaim = { level: 'FAIL' as const, message: FLIP_REASON, rests: { kind: 'sentence' as const } };
  const shown =
    stored === 'agreed'
      ? { verdict: 'PASS' as const }
      : stored === 'warn-over-fail'
        ? { verdict: 'WARN' as const, reason: FLIP_REASON }
        : { verdict: 'FAIL' as const, reason: FLIP_REASON, basis: declaredBasis(REQUIREMENTS, OLD_PROFILE_KEY, true)! };
  return {
    id: FLIPPED,
    title: 'A refresh token is single-use',
    area: 'auth',
    requirements: REQUIREMENTS,
    severity: 'MUST',
    ...shown,
    findings: [],
    evidence: [],
    timeline: [],
    record: { claims: stored === 'agreed' ? [{ level: 'INFO', message: 'the used refresh token was refused: 400' }] : [failClaim] },
    target: TARGET,
    durationMs: 30,
  };
}


/** A stored run's results: FLIPPED stored as the shape says, STEADY passing. */
export function storedRun(shape: StoredRunShape): RunResults {
  const results = buildResults({
    run: {
      target: TARGET,
      implementation: shape.implementation,
      suiteVersion: shape.suiteVersion ?? '0.1.0',
      specVersion: 'service-spec.md sha256:b214d7eb74ab',
      profileHash: 'sha256:0123456789ab',
      startedAt: shape.startedAt,
      finishedAt: shape.startedAt,
      durationMs: 60_000,
      insecureTls: false,
    },
    checks: [flippedCheck(shape.flipped), steadyCheck(TARGET)],
  });
  return shape.certification ? { ...results, certification: shape.certification } : results;
}
