// Turning probe analyses into CheckResults through the one outcome function
// (src/check/outcome.ts: FAIL on a MUST check, WARN on SHOULD/REVIEW ones,
// never a FAIL without its sentence), findings as WARN/INFO. INCONCLUSIVE (no limit below the probe's cap, where
// the profile documents none, or the cap below the documented limit) is shown
// like REVIEW, as the README's "Verdicts" table says: the probe ran and measured something a human
// should look at; a SKIP is a probe that did not run. A FAIL rests on the
// requirement's spec sentence, or — with declaredBy — on what the profile
// documents (a limit the probe went well above without finding it).
import type { CheckMeta, CheckResult, TimelineEntry } from '../../src/check/model.ts';
import type { Claim } from '../../src/check/outcome.ts';
import { judgeRecord, recordOf, type BasisRef, type CheckRecord } from '../../src/check/record.ts';
import type { DecidedOutcome } from '../../src/check/outcome.ts';
import type { RecordedExchange } from '../../src/http/exchange.ts';
import type { Redactor } from '../../src/http/redact.ts';
import type { RateStep } from '../../src/results/load-model.ts';
import type { AnalysisFinding } from '../probes/rate-limit/analysis.ts';

export const TARGET = 'target';

export interface ProbeOutcome {
  verdict: 'PASS' | 'FAIL' | 'INCONCLUSIVE' | 'SKIP' | 'ERROR' | 'REVIEW';
  reason?: string;
  details?: Record<string, unknown>;
  findings?: AnalysisFinding[];
  evidence?: RecordedExchange[];
  timeline?: TimelineEntry[];
  configKey?: string;
  /** A FAIL against what the profile declares (e.g. a documented limit), not against the spec's text: the key, and its value. */
  declaredBy?: string;
  declaredValue?: unknown;
  /** A FAIL on another sentence than the requirement's quote: a catalogue sentence id (src/check/basis.ts). */
  on?: string;
}

/** The probe's outcome as claims for the one outcome function (src/check/outcome.ts). */
function claimsOf(meta: CheckMeta, outcome: Omit<ProbeOutcome, 'evidence' | 'timeline'>, findings: Claim[]): Claim[] {
  const reason = outcome.reason ?? outcome.verdict;
  switch (outcome.verdict) {
    case 'FAIL': {
      const rests: BasisRef = outcome.declaredBy
        ? { kind: 'declared', profileKey: outcome.declaredBy, ...(outcome.declaredValue === undefined ? {} : { declaredValue: outcome.declaredValue }) }
        : { kind: 'sentence', ...(outcome.on ? { on: outcome.on } : {}) };
      return [...findings, { level: 'FAIL', message: reason, ...(outcome.details ? { details: outcome.details } : {}), rests }];
    }
    case 'INCONCLUSIVE': {
      const raise = outcome.configKey ? ` (raise ${outcome.configKey} in the profile)` : '';
      return [...findings, { level: 'REVIEW', message: `INCONCLUSIVE: ${outcome.reason ?? "no limit was found below the probe's cap"}${raise}` }];
    }
    case 'REVIEW':
      return [...findings, { level: 'REVIEW', message: reason }];
    default:
      return findings;
  }
}

/** A probe's outcome as its record: the claims of its findings and verdict, what it measured, its figures (src/check/record.ts). */
export function probeRecord(meta: CheckMeta, outcome: Omit<ProbeOutcome, 'evidence' | 'timeline'>, redact: Pick<Redactor, 'redactString' | 'redactJson'>): CheckRecord {
  const findings: Claim[] = (outcome.findings ?? []).map((f) => ({ level: f.level, message: f.message, ...(f.details ? { details: f.details } : {}) }));
  // Everything the record keeps is redacted, as evidence is.
  const redacted = (claim: Claim): Claim => ({
    ...claim,
    message: redact.redactString(claim.message),
    ...(claim.details ? { details: redact.redactJson(claim.details) as Record<string, unknown> } : {}),
    ...(claim.rests ? { rests: redact.redactJson(claim.rests) as BasisRef } : {}),
  });
  const skipReason = outcome.configKey && outcome.reason ? `${outcome.reason} (set ${outcome.configKey} in the profile to run it)` : (outcome.reason ?? 'skipped');
  // A PASS or a WARN beside it says what the probe measured (its reason), as the check's reason does (src/check/record.ts).
  const measured = outcome.verdict === 'PASS' ? outcome.reason : undefined;
  return recordOf({
    claims: claimsOf(meta, outcome, findings).map(redacted),
    ...(outcome.verdict === 'SKIP' ? { skipped: { reason: skipReason } } : {}),
    ...(outcome.verdict === 'ERROR' ? { stoppedBy: outcome.reason ?? 'the probe could not run' } : {}),
    ...(measured !== undefined ? { measured: redact.redactString(measured) } : {}),
    ...(outcome.details ? { details: redact.redactJson(outcome.details) as Record<string, unknown> } : {}),
  });
}

/** The check of a probe: its record, judged (by `judge`: a probe whose record keeps its analysis analyses it again), with its evidence and timeline. */
export function checkResultOfRecord(meta: CheckMeta, record: CheckRecord, kept: Pick<ProbeOutcome, 'evidence' | 'timeline'>, durationMs: number, judge: (meta: CheckMeta, record: CheckRecord) => DecidedOutcome = judgeRecord): CheckResult {
  return {
    ...meta,
    ...judge(meta, record),
    evidence: kept.evidence ?? [],
    timeline: kept.timeline ?? [],
    record,
    target: TARGET,
    durationMs: Math.round(durationMs),
  };
}

export function checkResult(meta: CheckMeta, outcome: ProbeOutcome, durationMs: number, redactor: Redactor): CheckResult {
  return checkResultOfRecord(meta, probeRecord(meta, outcome, redactor), outcome, durationMs);
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
      (s.endedInSetUp ? `, ${s.endedInSetUp} ended in their set-up (nothing measured)` : '') +
      (s.latencyAccepted ? `; p95 admitted ${s.latencyAccepted.p95Ms} ms` : '') +
      (s.latency429 ? `, p95 429 ${s.latency429.p95Ms} ms` : ''),
  }));
}
