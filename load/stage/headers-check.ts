// The REVIEW check on what 429 answers say about retrying: the first 429 of
// each rate-limit probe, parsed (Retry-After, three generations of rate-limit
// fields), checked for consistency and against the measured limit. What a 429
// carries is not shown (7, 8): absent fields are recorded, never a warning;
// only fields that are present and cannot be right WARN (which the REVIEW
// severity keeps from failing anything).
import type { CheckResult } from '../../src/check/model.ts';
import type { Redactor } from '../../src/http/redact.ts';
import { RATE_LIMIT_HEADERS } from '../checks.ts';
import { DOCUMENTED_LIMIT_TOLERANCE, type AnalysisFinding } from '../probes/rate-limit/analysis.ts';
import { analyzeRetryAdvice, type RetryAdvice } from '../probes/rate-limit/headers.ts';
import type { RateProbeOutput } from './rate-probe.ts';
import { checkResult } from './results.ts';

function summary(advice: RetryAdvice): string {
  const parts: string[] = [];
  if (advice.retryAfterSec !== undefined) parts.push(`Retry-After ${advice.retryAfterSec} s`);
  const fields = Object.entries(advice.fields).map(([k, v]) => `${k}=${v}`);
  if (fields.length) parts.push(`${advice.generation.join(' + ')}: ${fields.join(', ')}`);
  return parts.length ? parts.join('; ') : 'neither Retry-After nor rate-limit fields';
}

export function rateLimitHeadersCheck(probes: Array<{ operation: string; output?: RateProbeOutput; skipped?: string }>, redactor: Redactor): CheckResult {
  const findings: AnalysisFinding[] = [];
  const seen: string[] = [];
  for (const { operation, output } of probes) {
    const sample = output?.headerSamples.find((s) => s.status === 429);
    if (!sample || !output) continue;
    const advice = analyzeRetryAdvice(sample.headers, sample.status);
    seen.push(`${operation}: ${summary(advice)}`);
    for (const problem of advice.problems) findings.push({ level: 'WARN', message: `${operation}: ${problem}`, details: { headers: sample.headers } });
    const advertised = advice.advertisedRps;
    const measured = output.analysis.estimatedLimitRps;
    if (advertised !== undefined && measured !== undefined) {
      // A limiter without burst allowance is only bounded from below by what it admitted: compare with its whole range.
      const [low, high] = output.analysis.limitRangeRps ?? [measured, measured];
      const agree = advertised >= (1 - DOCUMENTED_LIMIT_TOLERANCE) * low && advertised <= (1 + DOCUMENTED_LIMIT_TOLERANCE) * high;
      const what = low === high ? `the measured limit of ${measured} req/s` : `the measured limit of ${low}–${high} req/s`;
      findings.push({
        level: agree ? 'INFO' : 'WARN',
        message: `${operation}: the advertised quota (${advertised} req/s) ${agree ? 'agrees with' : 'contradicts'} ${what}`,
      });
    }
    if (advice.retryAfterSec === undefined && advice.generation.length === 0) {
      findings.push({ level: 'INFO', message: `${operation}: 429 without Retry-After or rate-limit fields leaves clients guessing when to retry (the spec does not require them)` });
    }
  }
  if (seen.length === 0) {
    const why = probes.map((p) => p.skipped ?? (p.output ? `${p.operation}: no 429 was answered` : `${p.operation}: not run`)).join('; ');
    return checkResult(RATE_LIMIT_HEADERS, { verdict: 'SKIP', reason: `no 429 to read: ${why}` }, 0, redactor);
  }
  return checkResult(RATE_LIMIT_HEADERS, { verdict: 'REVIEW', reason: `429 answers carry ${seen.join(' | ')}`, findings }, 0, redactor);
}
