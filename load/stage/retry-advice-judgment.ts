// The judgment of the REVIEW check on what 429 answers say about retrying,
// from what it read: the first 429 of each rate-limit probe (its headers)
// and the limit that probe measured. Pure: the live stage and `ptas rejudge`
// (load/stage/probe-judgment.ts) make it from the same record. What a 429
// carries is not shown (7, 8): absent fields are recorded, never a warning;
// only fields that are present and cannot be right WARN (which the REVIEW
// severity keeps from failing anything).
import { DOCUMENTED_LIMIT_TOLERANCE, type AnalysisFinding } from '../probes/rate-limit/analysis.ts';
import { analyzeRetryAdvice, type RetryAdvice } from '../probes/rate-limit/headers.ts';
import type { ProbeOutcome } from './results.ts';

/** What the check read of one rate-limit probe. */
export interface RetryAdviceReading {
  operation: string;
  /** Why the probe has nothing to read, when it did not run. */
  skipped?: string;
  ran: boolean;
  /** The probe's first 429: its status and headers. */
  sample?: { status: number; headers: Record<string, string> };
  /** The limit the probe's staircase measured, and its range for a limiter without burst allowance. */
  estimatedLimitRps?: number;
  limitRangeRps?: [number, number];
}

export interface RetryAdviceMeasurements {
  kind: 'retry-advice';
  probes: RetryAdviceReading[];
}

function summary(advice: RetryAdvice): string {
  const parts: string[] = [];
  if (advice.retryAfterSec !== undefined) parts.push(`Retry-After ${advice.retryAfterSec} s`);
  const fields = Object.entries(advice.fields).map(([k, v]) => `${k}=${v}`);
  if (fields.length) parts.push(`${advice.generation.join(' + ')}: ${fields.join(', ')}`);
  return parts.length ? parts.join('; ') : 'neither Retry-After nor rate-limit fields';
}

/** The advertised quota against the measured limit: INFO where they agree, WARN where they cannot both be right. */
function quotaFinding(operation: string, advertised: number, reading: RetryAdviceReading): AnalysisFinding | undefined {
  const measured = reading.estimatedLimitRps;
  if (measured === undefined) return undefined;
  // A limiter without burst allowance is only bounded from below by what it admitted: compare with its whole range.
  const [low, high] = reading.limitRangeRps ?? [measured, measured];
  const agree = advertised >= (1 - DOCUMENTED_LIMIT_TOLERANCE) * low && advertised <= (1 + DOCUMENTED_LIMIT_TOLERANCE) * high;
  const what = low === high ? `the measured limit of ${measured} req/s` : `the measured limit of ${low}–${high} req/s`;
  return { level: agree ? 'INFO' : 'WARN', message: `${operation}: the advertised quota (${advertised} req/s) ${agree ? 'agrees with' : 'contradicts'} ${what}` };
}

export function retryAdviceOutcome(measurements: RetryAdviceMeasurements): Omit<ProbeOutcome, 'evidence' | 'timeline'> {
  const findings: AnalysisFinding[] = [];
  const seen: string[] = [];
  for (const reading of measurements.probes) {
    const { operation, sample } = reading;
    if (!sample) continue;
    const advice = analyzeRetryAdvice(sample.headers, sample.status);
    seen.push(`${operation}: ${summary(advice)}`);
    for (const problem of advice.problems) findings.push({ level: 'WARN', message: `${operation}: ${problem}`, details: { headers: sample.headers } });
    const quota = advice.advertisedRps === undefined ? undefined : quotaFinding(operation, advice.advertisedRps, reading);
    if (quota) findings.push(quota);
    if (advice.retryAfterSec === undefined && advice.generation.length === 0) {
      findings.push({ level: 'INFO', message: `${operation}: 429 without Retry-After or rate-limit fields leaves clients guessing when to retry (the spec does not require them)` });
    }
  }
  if (seen.length === 0) {
    const why = measurements.probes.map((p) => p.skipped ?? (p.ran ? `${p.operation}: no 429 was answered` : `${p.operation}: not run`)).join('; ');
    return { verdict: 'SKIP', reason: `no 429 to read: ${why}` };
  }
  return { verdict: 'REVIEW', reason: `429 answers carry ${seen.join(' | ')}`, findings };
}
