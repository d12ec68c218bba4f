// A load probe judged from what it measured: the record of a 429 staircase's
// check keeps the staircase's measurements (its steps, when its requests were
// sent and answered, whether the generator held the plan) and the criteria it
// was held to; the 413 probe's, the sizes it tried with their answers, the
// range it could try, the limit the profile documents and what the probe
// cost; the read-back of rate-limited accepts, the offers read back and the
// control offer (not-executed-judgment.ts); the 429 headers check, the first
// 429 of each staircase and the limit it measured (retry-advice-judgment.ts). Its verdict is their analysis (load/probes/rate-limit/analysis.ts,
// load/probes/body-size/analysis.ts) made into claims and judged by the one
// judgment of src/check/record.ts. The live stage and `ptas rejudge` call the
// same judgeProbeRecord: a later suite's analysis (how the limit is estimated,
// when overload is a collapse, where a size boundary lies) judges the same
// measurements.
import type { CheckMeta, CheckRecord } from '../../src/check/model.ts';
import type { DecidedOutcome } from '../../src/check/outcome.ts';
import { judgeRecord } from '../../src/check/record.ts';
import { analyzeRateLimit } from '../probes/rate-limit/analysis.ts';
import { judgeBodySize, type BodySizeJudgement, type ProbeContext } from '../probes/body-size/analysis.ts';
import type { AnalysisFinding } from '../probes/rate-limit/model.ts';
import type { SizeProbeStep } from '../../src/results/load-model.ts';
import type { RateLimitAnalysis, RateLimitCriteria } from '../probes/rate-limit/model.ts';
import type { NormalizedRun, PhaseResult } from '../result/normalized.ts';
import { probeRecord, type ProbeOutcome } from './results.ts';
import { notExecutedOutcome, type NotExecutedMeasurements } from './not-executed-judgment.ts';
import { retryAdviceOutcome, type RetryAdviceMeasurements } from './retry-advice-judgment.ts';

/**
 * What the analysis reads of a staircase, and the criteria: nothing else of
 * the run (no exchange, no header value, no offer id). earlierClimbs: the
 * steps of the climbs before the last, when the generator fell behind in them.
 */
export function staircaseMeasurements(run: NormalizedRun, criteria: RateLimitCriteria, earlierClimbs: PhaseResult[][] = []): NonNullable<CheckRecord['analysis']> {
  const { format, version, engine, scenario, startedAt, durationMs, phases, generator, arrivalTimeline } = run;
  const measured: NormalizedRun = { format, version, engine, scenario, startedAt, durationMs, phases, generator, thresholds: [], timeSeries: [], headerSamples: [], ...(arrivalTimeline ? { arrivalTimeline } : {}) };
  return { kind: 'rate-limit', run: measured, criteria, ...(earlierClimbs.length ? { earlierClimbs } : {}) };
}

/** The analysis as the probe's outcome: its verdict, reason, basis and findings. */
export function rateLimitOutcome(analysis: RateLimitAnalysis): Omit<ProbeOutcome, 'evidence' | 'timeline'> {
  const { verdict, reason, declaredBy, declaredValue, on, details, findings } = analysis;
  return { verdict, reason, declaredBy, declaredValue, on, details, findings };
}

/** What a 413 probe cost: its requests against its budget, and those repeated after a 429 or a gateway's answer. */
export interface SizeProbeCost {
  requests: number;
  requestBudget: number;
  rateLimitedRetries: number;
}

/** What the 413 judgement reads, and what the probe cost. */
export function sizeMeasurements(steps: SizeProbeStep[], context: ProbeContext, cost: SizeProbeCost): NonNullable<CheckRecord['analysis']> {
  return { kind: 'body-size', steps, context, cost };
}

/** The 413 judgement as the probe's outcome, with what the probe cost: noted, never a warning against the implementation. */
export function bodySizeOutcome(judgement: BodySizeJudgement, cost: SizeProbeCost): Omit<ProbeOutcome, 'evidence' | 'timeline'> {
  const { verdict, reason, declaredBy, declaredValue, on, details } = judgement;
  const findings: AnalysisFinding[] = [...judgement.findings];
  if (cost.requests > cost.requestBudget) findings.push({ level: 'INFO', message: `the probe needed ${cost.requests} requests, over its budget of ${cost.requestBudget}` });
  if (cost.rateLimitedRetries) findings.push({ level: 'INFO', message: `${cost.rateLimitedRetries} probe(s) were answered 429, or a gateway's 502, 503 or 504, and repeated after Retry-After` });
  return { verdict, reason, declaredBy, declaredValue, on, details, findings };
}

/** Texts of an analysis are figures and the suite's words: nothing to redact. */
const asIs = { redactString: (text: string) => text, redactJson: (value: unknown) => value };

/** The outcome the analysis of the recorded measurements gives. */
function analysedOutcome(analysis: NonNullable<CheckRecord['analysis']>): Omit<ProbeOutcome, 'evidence' | 'timeline'> {
  switch (analysis.kind) {
    case 'rate-limit': {
      const { run, criteria, earlierClimbs } = analysis as { run: NormalizedRun; criteria: RateLimitCriteria; earlierClimbs?: PhaseResult[][] };
      return rateLimitOutcome(analyzeRateLimit(run, criteria, earlierClimbs));
    }
    case 'body-size': {
      const { steps, context, cost } = analysis as { steps: SizeProbeStep[]; context: ProbeContext; cost: SizeProbeCost };
      return bodySizeOutcome(judgeBodySize(steps, context), cost);
    }
    case 'accept-not-executed':
      return notExecutedOutcome(analysis as NotExecutedMeasurements);
    case 'retry-advice':
      return retryAdviceOutcome(analysis as RetryAdviceMeasurements);
  }
}

/** The judgment of a load probe's record: its analysis made again where the record keeps its measurements, else the record's claims. */
export function judgeProbeRecord(meta: CheckMeta, record: CheckRecord): DecidedOutcome {
  if (!record.analysis) return judgeRecord(meta, record);
  return judgeRecord(meta, probeRecord(meta, analysedOutcome(record.analysis), asIs));
}
