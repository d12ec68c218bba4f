// Small hand-made runs for the GitHub reporter and the trend page: each check
// and each load figure is stated by the test, so an assertion can name it.
// Built with src/results/build.ts as a real run is.
import type { CheckResult } from '../../../src/check/model.ts';
import { verdictBasis } from '../../../src/check/basis.ts';
import { buildResults } from '../../../src/results/build.ts';
import type { LoadSection } from '../../../src/results/load-model.ts';
import type { RunResults } from '../../../src/results/model.ts';
import { catalogue } from '../../../src/requirements.ts';

/** Real requirement ids, so a FAIL's basis quotes the catalogue as a real check's does. */
export const REQ = catalogue().requirements.slice(0, 4).map((r) => r.id) as [string, string, string, string];

export interface CheckSpec {
  id: string;
  verdict: string;
  reason?: string;
  requirements?: string[];
  /** A profile key: the FAIL is profile-declared. */
  declaredBy?: string;
  target?: string;
}

export function check(spec: CheckSpec): CheckResult {
  const requirements = spec.requirements ?? [REQ[0]];
  const failing = spec.verdict === 'FAIL';
  return {
    id: spec.id,
    title: `The check ${spec.id}`,
    area: 'auth',
    requirements,
    severity: 'MUST',
    verdict: spec.verdict as CheckResult['verdict'],
    reason: spec.reason ?? (spec.verdict === 'PASS' ? undefined : `${spec.id} said ${spec.verdict}`),
    basis: failing ? verdictBasis(requirements, spec.declaredBy) : undefined,
    findings: [],
    evidence: [],
    timeline: [],
    target: spec.target ?? 'http://127.0.0.1:40123',
    durationMs: 12,
  };
}

export interface LoadSpec {
  onsetRps?: number;
  smallest413?: number;
  p95Ms?: number;
}

export function load(spec: LoadSpec): LoadSection {
  const latency = (p95: number) => ({ p50Ms: p95 / 2, p90Ms: p95 * 0.9, p95Ms: p95, p99Ms: p95 * 1.5, maxMs: p95 * 3 });
  return {
    engine: 'embedded',
    startedAt: '2026-11-20T02:20:00.000Z',
    durationMs: 20_000,
    probes: [
      { kind: 'rate-limit', checkId: 'load.token-rate-limit', operation: 'POST /v1/oauth/token', engine: 'embedded', steps: [], onsetRps: spec.onsetRps, capRps: 400, timeSeries: [], verdict: 'PASS' },
      { kind: 'body-size', checkId: 'load.token-body-size-limit', operation: 'POST /v1/oauth/token', steps: [], smallestRejectedBytes: spec.smallest413, largestAcceptedBytes: spec.smallest413 ? spec.smallest413 - 1 : undefined, requests: 30, requestBudget: 52, verdict: 'PASS' },
    ],
    profiles:
      spec.p95Ms === undefined
        ? []
        : [{ kind: 'profile', scenario: 'smoke', operation: 'GET /v2/users/{id}', engine: 'embedded', targetRps: 20, achievedRps: 20, durationSec: 10, requests: 200, dropped: 0, statusCounts: { '200': 200 }, latency: latency(spec.p95Ms), thresholds: [], timeSeries: [] }],
  };
}

export function run(startedAt: string, checks: CheckSpec[], loadSpec?: LoadSpec, errors: string[] = []): RunResults {
  return buildResults({
    run: {
      target: 'http://127.0.0.1:40123',
      implementation: 'Nightly sandbox',
      suiteVersion: '0.1.0',
      specVersion: catalogue().specVersion,
      profileHash: 'sha256:0123456789ab',
      startedAt,
      finishedAt: startedAt,
      durationMs: 61_000,
      insecureTls: false,
    },
    checks: checks.map(check),
    load: loadSpec ? load(loadSpec) : undefined,
    errors,
  });
}
