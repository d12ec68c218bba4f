// Turning probe analyses into CheckResults: the verdict rules of
// src/check/model.ts (FAIL on a MUST check, WARN on SHOULD/REVIEW ones),
// findings as WARN/INFO. INCONCLUSIVE (no limit below the probe's cap, where
// the profile documents none, or the cap below the documented limit) is shown
// like REVIEW, as the README's "Verdicts" table says: the probe ran and measured something a human
// should look at; a SKIP is a probe that did not run. A FAIL rests on the
// requirement's spec sentence, or — with declaredBy — on what the profile
// documents (a limit the probe went well above without finding it).
import { violationVerdict, type CheckMeta, type CheckResult, type Finding, type TimelineEntry, type Verdict } from '../../src/check/model.ts';
import type { RecordedExchange } from '../../src/http/exchange.ts';
import type { Redactor } from '../../src/http/redact.ts';
import type { RateStep } from '../../src/results/load-model.ts';
import type { AnalysisFinding } from '../probes/rate-limit/analysis.ts';
import { verdictBasis } from '../../src/check/basis.ts';

export const TARGET = 'target';

export interface ProbeOutcome {
  verdict: 'PASS' | 'FAIL' | 'INCONCLUSIVE' | 'SKIP' | 'ERROR' | 'REVIEW';
  reason?: string;
  details?: Record<string, unknown>;
  findings?: AnalysisFinding[];
  evidence?: RecordedExchange[];
  timeline?: TimelineEntry[];
  configKey?: string;
  /** A FAIL against what the profile declares (e.g. a documented limit), not against the spec's text. */
  declaredBy?: string;
}

export function checkResult(meta: CheckMeta, outcome: ProbeOutcome, durationMs: number, redactor: Redactor): CheckResult {
  const findings: Finding[] = (outcome.findings ?? []).map((f) => ({
    level: f.level,
    message: redactor.redactString(f.message),
    ...(f.details ? { details: redactor.redactJson(f.details) as Record<string, unknown> } : {}),
  }));
  let verdict: Verdict;
  let reason = outcome.reason;
  switch (outcome.verdict) {
    case 'FAIL':
      verdict = violationVerdict(meta.severity, outcome.declaredBy);
      break;
    case 'INCONCLUSIVE':
      verdict = 'REVIEW';
      reason = `INCONCLUSIVE: ${reason ?? 'no limit was found below the probe\'s cap'}`;
      if (outcome.configKey) reason = `${reason} (raise ${outcome.configKey} in the profile)`;
      break;
    case 'SKIP':
      verdict = 'SKIP';
      if (outcome.configKey && reason) reason = `${reason} (set ${outcome.configKey} in the profile to run it)`;
      break;
    case 'ERROR':
      verdict = 'ERROR';
      break;
    case 'REVIEW': {
      const warning = findings.find((f) => f.level === 'WARN');
      verdict = warning ? 'WARN' : 'REVIEW';
      if (warning) reason = warning.message;
      break;
    }
    default: {
      const warning = findings.find((f) => f.level === 'WARN');
      verdict = warning ? 'WARN' : 'PASS';
      if (warning) reason = `${warning.message} (${outcome.reason})`;
    }
  }
  const failed = outcome.verdict === 'FAIL';
  return {
    ...meta,
    verdict,
    reason: reason === undefined ? undefined : redactor.redactString(reason),
    ...(failed ? { basis: verdictBasis(meta.requirements, outcome.declaredBy) } : {}),
    details: outcome.details && (redactor.redactJson(outcome.details) as Record<string, unknown>),
    findings,
    evidence: outcome.evidence ?? [],
    timeline: outcome.timeline ?? [],
    target: TARGET,
    durationMs: Math.round(durationMs),
  };
}

/** One timeline entry per staircase step, so the check reads like the run. */
export function stepTimeline(steps: RateStep[], startSecs: number[]): TimelineEntry[] {
  return steps.map((s, i) => ({
    atMs: Math.round((startSecs[i] ?? 0) * 1000),
    event: `${s.offeredRps} req/s for ${s.durationSec} s`,
    detail:
      `${s.sent} sent, ${s.accepted} admitted (${s.acceptedRps}/s), ${s.rateLimited} × 429` +
      (s.serverErrors ? `, ${s.serverErrors} × 5xx` : '') +
      (s.transportErrors ? `, ${s.transportErrors} connection failures` : '') +
      (s.dropped ? `, ${s.dropped} not started` : '') +
      (s.latencyAccepted ? `; p95 admitted ${s.latencyAccepted.p95Ms} ms` : '') +
      (s.latency429 ? `, p95 429 ${s.latency429.p95Ms} ms` : ''),
  }));
}
