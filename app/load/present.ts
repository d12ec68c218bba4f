// A judged load run as `ptas load` shows it (the step table, the findings)
// and as its result file keeps it (the run, the analysis, and the load
// section of results.json the report draws) — for one engine's run and for
// the merge of a distributed run's instances alike.
import type { RunAnalysis } from '../../load/probes/analyze.ts';
import type { RateLimitAnalysis } from '../../load/probes/rate-limit/analysis.ts';
import type { NormalizedRun } from '../../load/result/normalized.ts';
import type { OperationName } from '../../load/scenarios/types.ts';
import { profileRunRecord, rateLimitRecord } from '../../load/stage/records.ts';
import type { LoadSection, ProfileRun, RateLimitProbe } from '../../src/results/load-model.ts';
import { checkIdOf } from './criteria.ts';

export function phaseTable(run: NormalizedRun): string {
  return run.phases
    .map(
      (p) =>
        `  ${p.name.padEnd(18)} ${String(Math.round(p.offeredRps)).padStart(6)}/s × ${p.durationSec}s  sent ${p.sent}  2xx ${p.answers['2xx']}  4xx ${p.answers['4xx']}  429 ${p.answers['429']}  5xx ${p.answers['5xx']}  failed ${p.answers.transport}` +
        `${p.dropped ? `  dropped ${p.dropped}` : ''}${p.latency.all ? `  p95 ${p.latency.all.p95Ms} ms` : ''}`,
    )
    .join('\n');
}

export function findingLines(analysis: RateLimitAnalysis): string {
  return analysis.findings.map((f) => `  ${f.level}: ${f.message}\n`).join('');
}

export function thresholdLines(run: NormalizedRun): string {
  return run.thresholds.map((t) => `  ${t.samples === 0 ? 'no samples' : t.ok ? 'held' : 'CROSSED'}: ${t.metric} ${t.expression}\n`).join('');
}

/** The run in the shape of results.json's load section, so the report's charts can draw it. */
export function loadSection(run: NormalizedRun, probes: RateLimitProbe[], profiles: ProfileRun[]): LoadSection {
  return { engine: run.engine, startedAt: run.startedAt, durationMs: run.durationMs, probes, profiles };
}

/** What the result file keeps of a judged arrival-rate run. */
export function judgedData(run: NormalizedRun, judged: RunAnalysis, operation: OperationName, staircase?: { capRps: number; expectedRps?: number }): Record<string, unknown> {
  if (judged.rateLimit && staircase) {
    const record = rateLimitRecord({ checkId: checkIdOf(operation), operation: operation as 'token' | 'accept', run, analysis: judged.rateLimit, ...staircase, redact: (t) => t });
    return { result: run, analysis: judged.rateLimit, load: loadSection(run, [record], []) };
  }
  return { result: run, load: loadSection(run, [], [profileRunRecord(run, operation)]) };
}

/** The step table and what was found, on the terminal. */
export function showJudged(out: NodeJS.WritableStream, run: NormalizedRun, judged: RunAnalysis): void {
  out.write(`${phaseTable(run)}\n${judged.rateLimit ? findingLines(judged.rateLimit) : thresholdLines(run)}`);
}
