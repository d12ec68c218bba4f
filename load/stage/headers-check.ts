// The REVIEW check on what 429 answers say about retrying: the first 429 of
// each rate-limit probe, parsed (Retry-After, three generations of rate-limit
// fields), checked for consistency and against the measured limit.
import type { CheckResult } from '../../src/check/model.ts';
import type { Redactor } from '../../src/http/redact.ts';
import { RATE_LIMIT_HEADERS } from '../checks.ts';
import type { AnalysisFinding } from '../probes/rate-limit/analysis.ts';
import { analyzeRetryAdvice, type RetryAdvice } from '../probes/rate-limit/headers.ts';
import type { RateProbeOutput } from './rate-probe.ts';
import { checkResult } from './results.ts';

/** The advertised sustained rate of a structured RateLimit-Policy (q per w seconds), when there is exactly one policy. */
function advertisedRps(advice: RetryAdvice): number | undefined {
  const quotas = Object.entries(advice.fields).filter(([k]) => k.startsWith('policy ') && k.endsWith(' q'));
  if (quotas.length !== 1) return undefined;
  const [key, q] = quotas[0]!;
  const w = advice.fields[key.replace(/ q$/, ' w')];
  return typeof q === 'number' ? q / (typeof w === 'number' && w > 0 ? w : 1) : undefined;
}

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
    const advertised = advertisedRps(advice);
    const measured = output.analysis.estimatedLimitRps;
    if (advertised !== undefined && measured !== undefined) {
      const agree = Math.abs(advertised - measured) <= 0.25 * measured;
      findings.push({
        level: agree ? 'INFO' : 'WARN',
        message: `${operation}: the advertised quota (${advertised} req/s) ${agree ? 'agrees with' : 'contradicts'} the measured limit of ${measured} req/s`,
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
