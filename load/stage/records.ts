// The normalized result and its analysis as the load section of
// results.json (src/results/load-model.ts) records them: what the report
// draws, for `ptas run`'s probes and `ptas load` runs alike.
import type { BodySizeProbe, LatencySummary, ProfileRun, RateLimitProbe, SizeProbeStep } from '../../src/results/load-model.ts';
import type { BodySizeJudgement } from '../probes/body-size/analysis.ts';
import type { RateLimitAnalysis } from '../probes/rate-limit/analysis.ts';
import type { NormalizedRun } from '../result/normalized.ts';

const RATE_HEADERS = /^(ratelimit|ratelimit-policy|ratelimit-limit|ratelimit-remaining|ratelimit-reset|x-ratelimit-limit|x-ratelimit-remaining|x-ratelimit-reset)$/;

export const OPERATION_LABEL = { token: 'POST /v1/oauth/token', accept: 'PATCH /v1/offers/{Offer-ID}/accept', 'user-details': 'GET /v2/users/{User-ID}' } as const;

export function rateLimitRecord(input: {
  checkId: string;
  operation: 'token' | 'accept';
  run: NormalizedRun;
  analysis: RateLimitAnalysis;
  capRps: number;
  expectedRps?: number;
  backoffSec?: number;
  redact: (text: string) => string;
}): RateLimitProbe {
  const { run, analysis } = input;
  const firstLimited = run.headerSamples.find((s) => s.status === 429);
  return {
    kind: 'rate-limit',
    checkId: input.checkId,
    operation: OPERATION_LABEL[input.operation],
    engine: run.engine,
    steps: analysis.steps,
    onsetRps: analysis.onsetRps,
    estimatedLimitRps: analysis.estimatedLimitRps,
    capRps: input.capRps,
    expectedLimitRps: input.expectedRps,
    headers: firstLimited
      ? { retryAfter: firstLimited.headers['retry-after'], fields: Object.fromEntries(Object.entries(firstLimited.headers).filter(([k]) => RATE_HEADERS.test(k))) }
      : undefined,
    recovered: analysis.recovered,
    timeSeries: run.timeSeries,
    verdict: analysis.verdict,
    reason: input.redact(analysis.reason),
    estimatedBurst: analysis.estimatedBurst,
    estimateMethod: analysis.estimateMethod,
    backoffSec: input.backoffSec,
    generatorNote: run.generator.saturated ? run.generator.reason : undefined,
  };
}

export function profileRunRecord(run: NormalizedRun, operation: keyof typeof OPERATION_LABEL): ProfileRun {
  const phases = run.phases;
  const durationSec = phases.reduce((s, p) => s + p.durationSec, 0);
  const requests = phases.reduce((s, p) => s + p.sent, 0);
  const statusCounts: Record<string, number> = {};
  for (const p of phases) {
    const counts = Object.keys(p.statusCounts).length ? p.statusCounts : p.answers;
    for (const [k, n] of Object.entries(counts)) statusCounts[k] = (statusCounts[k] ?? 0) + n;
  }
  const all = phases.find((p) => p.latency.all)?.latency.all;
  const latency: LatencySummary = all ? { p50Ms: all.p50Ms, p90Ms: all.p90Ms, p95Ms: all.p95Ms, p99Ms: all.p99Ms, maxMs: all.maxMs } : { p50Ms: 0, p90Ms: 0, p95Ms: 0, p99Ms: 0, maxMs: 0 };
  return {
    kind: 'profile',
    scenario: run.scenario,
    operation: OPERATION_LABEL[operation],
    engine: run.engine,
    targetRps: durationSec ? phases.reduce((s, p) => s + p.offeredRps * p.durationSec, 0) / durationSec : 0,
    achievedRps: durationSec ? requests / durationSec : 0,
    durationSec,
    requests,
    dropped: phases.reduce((s, p) => s + p.dropped, 0),
    statusCounts,
    latency,
    thresholds: run.thresholds.map((t) => ({ name: `${t.metric} ${t.expression}`, ok: t.ok })),
    timeSeries: run.timeSeries,
  };
}

export function bodySizeRecord(input: {
  checkId: string;
  steps: SizeProbeStep[];
  judgement: BodySizeJudgement;
  requests: number;
  requestBudget: number;
  redact: (text: string) => string;
}): BodySizeProbe {
  return {
    kind: 'body-size',
    checkId: input.checkId,
    operation: OPERATION_LABEL.token,
    steps: input.steps,
    largestAcceptedBytes: input.judgement.largestAcceptedBytes,
    smallestRejectedBytes: input.judgement.smallestRejectedBytes,
    requests: input.requests,
    requestBudget: input.requestBudget,
    verdict: input.judgement.verdict,
    reason: input.redact(input.judgement.reason),
  };
}
