// The REVIEW check on what 429 answers say about retrying: it reads the first
// 429 of each rate-limit probe and the limit that probe measured, and keeps
// them in its record; its verdict is their judgment
// (load/stage/retry-advice-judgment.ts), made again from the record by
// `ptas rejudge`.
import type { CheckResult } from '../../src/check/model.ts';
import type { Redactor } from '../../src/http/redact.ts';
import { RATE_LIMIT_HEADERS } from '../checks.ts';
import type { RateProbeOutput } from './rate-probe.ts';
import { judgeProbeRecord } from './probe-judgment.ts';
import { checkResultOfRecord, probeRecord } from './results.ts';
import { retryAdviceOutcome, type RetryAdviceMeasurements, type RetryAdviceReading } from './retry-advice-judgment.ts';

function reading(operation: string, output: RateProbeOutput | undefined, skipped: string | undefined, redactor: Redactor): RetryAdviceReading {
  const sample = output?.headerSamples.find((s) => s.status === 429);
  const { estimatedLimitRps, limitRangeRps } = output?.analysis ?? {};
  return {
    operation,
    ran: output !== undefined,
    ...(skipped !== undefined ? { skipped: redactor.redactString(skipped) } : {}),
    // Headers are kept as evidence keeps them: redacted, a credential header (a Set-Cookie) by its name.
    ...(sample ? { sample: { status: sample.status, headers: redactor.redactHeaders(sample.headers) } } : {}),
    ...(estimatedLimitRps !== undefined ? { estimatedLimitRps } : {}),
    ...(limitRangeRps ? { limitRangeRps } : {}),
  };
}

export function rateLimitHeadersCheck(probes: Array<{ operation: string; output?: RateProbeOutput; skipped?: string }>, redactor: Redactor): CheckResult {
  const measurements: RetryAdviceMeasurements = { kind: 'retry-advice', probes: probes.map((p) => reading(p.operation, p.output, p.skipped, redactor)) };
  const record = { ...probeRecord(RATE_LIMIT_HEADERS, retryAdviceOutcome(measurements), redactor), analysis: measurements };
  return checkResultOfRecord(RATE_LIMIT_HEADERS, record, {}, 0, judgeProbeRecord);
}
