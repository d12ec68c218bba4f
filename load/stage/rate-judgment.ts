// A 429 staircase judged from what it measured: the record of a rate probe's
// check keeps the staircase's measurements (its steps, when its requests were
// sent and answered, whether the generator held the plan) and the criteria it
// was held to, and its verdict is the analysis of them
// (load/probes/rate-limit/analysis.ts) made into claims and judged by the one
// judgment of src/check/record.ts. The live stage and `ptas rejudge` call the
// same judgeProbeRecord: a later suite's analysis (how the limit is estimated,
// when overload is a collapse) judges the same staircase.
import type { CheckMeta, CheckRecord } from '../../src/check/model.ts';
import type { DecidedOutcome } from '../../src/check/outcome.ts';
import { judgeRecord } from '../../src/check/record.ts';
import { analyzeRateLimit } from '../probes/rate-limit/analysis.ts';
import type { RateLimitAnalysis, RateLimitCriteria } from '../probes/rate-limit/model.ts';
import type { NormalizedRun } from '../result/normalized.ts';
import { probeRecord, type ProbeOutcome } from './results.ts';

/** What the analysis reads of a staircase, and the criteria: nothing else of the run (no exchange, no header value, no offer id). */
export function staircaseMeasurements(run: NormalizedRun, criteria: RateLimitCriteria): NonNullable<CheckRecord['analysis']> {
  const { format, version, engine, scenario, startedAt, durationMs, phases, generator, arrivalTimeline } = run;
  const measured: NormalizedRun = { format, version, engine, scenario, startedAt, durationMs, phases, generator, thresholds: [], timeSeries: [], headerSamples: [], ...(arrivalTimeline ? { arrivalTimeline } : {}) };
  return { kind: 'rate-limit', run: measured, criteria };
}

/** The analysis as the probe's outcome: its verdict, reason, basis and findings. */
export function rateLimitOutcome(analysis: RateLimitAnalysis): Omit<ProbeOutcome, 'evidence' | 'timeline'> {
  const { verdict, reason, declaredBy, declaredValue, on, details, findings } = analysis;
  return { verdict, reason, declaredBy, declaredValue, on, details, findings };
}

/** Texts of an analysis are figures and the suite's words: nothing to redact. */
const asIs = { redactString: (text: string) => text, redactJson: (value: unknown) => value };

/** The judgment of a load probe's record: a staircase's analysis made again where the record keeps its measurements, else the record's claims. */
export function judgeProbeRecord(meta: CheckMeta, record: CheckRecord): DecidedOutcome {
  if (record.analysis?.kind !== 'rate-limit') return judgeRecord(meta, record);
  const { run, criteria } = record.analysis as { run: NormalizedRun; criteria: RateLimitCriteria };
  return judgeRecord(meta, probeRecord(meta, rateLimitOutcome(analyzeRateLimit(run, criteria)), asIs));
}
