// The short terminal summary printed at the end of `ptas run` and by
// `ptas report`: the verdict, the counts, each failure (a FLAKY check with
// its attempts) with its requirement and reason, each waived check with the verdict it gave and its waiver, the
// waivers that did not apply, the load headline figures and, with a
// baseline, what changed.
import type { CheckResult } from '../src/check/model.ts';
import { describeBasis } from '../src/check/basis.ts';
import { attemptLine } from '../src/results/attempts.ts';
import { explainRunVerdict, verdictInputOf } from '../src/results/verdict.ts';
import type { RunResults } from '../src/results/model.ts';
import type { BaselineDiff, CheckChange, LoadFigureChange } from './baseline.ts';
import { formatTimestamp } from './format.ts';
import type { WrittenReport } from './write.ts';
import { certificationLines } from '../src/certify/certifiability.ts';

/** Beyond this many lines of one kind, the report has the rest. */
const LIST_LIMIT = 20;

function limited<T>(items: T[], line: (item: T) => string, indent: string): string[] {
  const lines = items.slice(0, LIST_LIMIT).map(line);
  if (items.length > LIST_LIMIT) lines.push(`${indent}… and ${items.length - LIST_LIMIT} more (see the report)`);
  return lines;
}

function loadLines(results: RunResults): string[] {
  const load = results.load;
  if (!load) return [];
  const lines: string[] = [];
  for (const p of load.probes) {
    const figures =
      p.kind === 'rate-limit'
        ? [p.onsetRps !== undefined ? `429 onset ${p.onsetRps} req/s` : `no 429 up to ${p.capRps} req/s`, p.estimatedLimitRps !== undefined ? `limit ≈ ${p.estimatedLimitRps} req/s` : '']
        : [
            p.smallestRejectedBytes !== undefined ? `smallest 413 body ${p.smallestRejectedBytes} B` : 'no 413 found',
            p.largestAcceptedBytes !== undefined ? `largest accepted ${p.largestAcceptedBytes} B` : '',
          ];
    lines.push(`  load ${p.verdict} ${p.checkId}: ${figures.filter(Boolean).join(', ')}`);
  }
  for (const r of load.profiles) {
    lines.push(`  load profile ${r.scenario}: ${r.achievedRps}/${r.targetRps} req/s, ${r.requests} requests, p95 ${r.latency.p95Ms} ms, p99 ${r.latency.p99Ms} ms`);
  }
  return lines;
}

function changeLine(kind: string, c: CheckChange): string {
  const now = c.after ?? 'not run';
  const was = c.before ? `was ${c.before}` : 'new check';
  return `    ${kind.padEnd(14)} ${now} ${c.id} [${c.requirements.join(', ')}] (${was})${c.reason && c.after !== 'PASS' ? `: ${c.reason}` : ''}`;
}

function figure(value: number | undefined, unit: string): string {
  if (value === undefined) return '—';
  if (unit === 'share') return `${(value * 100).toFixed(1)} %`;
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${unit === 'bytes' ? 'B' : unit}`;
}

function loadChangeLine(c: LoadFigureChange): string {
  const rel = c.relative !== undefined ? ` (${c.relative > 0 ? '+' : ''}${(c.relative * 100).toFixed(1)} %)` : '';
  return `    ${'load'.padEnd(14)} ${c.subject} ${c.figure}: ${figure(c.before, c.unit)} → ${figure(c.after, c.unit)}${rel} ${c.change}`;
}

/** Waived checks, then the waivers that did not apply: what a certifier must see beside the verdict. */
export function waiverLines(results: RunResults): string[] {
  const section = results.waivers;
  const lines: string[] = [];
  const waived = results.checks.filter((check) => check.verdict === 'WAIVED' && check.waived);
  lines.push(
    ...limited(
      waived,
      (check) => {
        const w = check.waived!.waiver;
        return `  WAIVED ${check.id} [${check.requirements.join(', ')}] (gave ${check.waived!.verdict}): ${check.reason ?? ''}\n      waiver ${w.pointer}: ${w.reason} — ${w.owner}, ${w.tracking}, through ${w.expires}`;
      },
      '  ',
    ),
  );
  if (!section) return lines;
  const tally = (['applied', 'expired', 'stale', 'unmatched'] as const).map((status) => `${section.outcomes.filter((o) => o.status === status).length} ${status}`);
  lines.push(`  waivers ${section.file} (sha256 ${section.sha256.slice(0, 12)}${section.strict ? ', strict' : ''}): ${tally.join(', ')}`);
  const notApplied = section.outcomes.filter((o) => o.status !== 'applied');
  lines.push(...limited(notApplied, (o) => `    ${o.status.padEnd(9)} ${o.waiver.pointer} ${o.waiver.selector.kind} ${o.waiver.selector.id} (${o.waiver.owner}): ${o.note}`, '    '));
  return lines;
}

export function baselineSummary(diff: BaselineDiff): string[] {
  const lines = [
    `  compared with the baseline of ${formatTimestamp(diff.baseline.startedAt)} (${diff.verdict.before} → ${diff.verdict.after}): ` +
      `${diff.newlyFailing.length} newly failing, ${diff.newlyPassing.length} newly passing, ${diff.otherChanges.length} other changes, ` +
      `${diff.load.length} load figures changed; ${diff.regressions} regression${diff.regressions === 1 ? '' : 's'}`,
  ];
  for (const note of diff.notes) lines.push(`    note: ${note}`);
  lines.push(...limited(diff.newlyFailing, (c) => changeLine('newly failing', c), '    '));
  lines.push(...limited(diff.newlyPassing, (c) => changeLine('newly passing', c), '    '));
  lines.push(...limited(diff.otherChanges, (c) => changeLine('changed', c), '    '));
  lines.push(...limited(diff.load, loadChangeLine, '    '));
  return lines;
}

export function terminalSummary(results: RunResults, report?: WrittenReport, diff?: BaselineDiff): string {
  const c = results.counts;
  const lines = [
    '',
    `${results.verdict}  ${results.run.target}`,
    `  ${c.PASS} pass, ${c.FAIL} fail, ${c.WARN} warn, ${c.REVIEW} review, ${c.SKIP} skip, ${c.ERROR} error${c.FLAKY ? `, ${c.FLAKY} flaky` : ''}${c.WAIVED ? `, ${c.WAIVED} waived` : ''} in ${(results.run.durationMs / 1000).toFixed(1)} s`,
  ];
  if (results.run.interrupted) lines.push(`  INTERRUPTED: ${results.run.interrupted}`);
  if (results.run.insecureTls) lines.push('  TLS certificate verification was OFF (--insecure)');
  lines.push(`  ${explainRunVerdict(verdictInputOf(results))}`);
  if (results.certification) lines.push(...certificationLines(results.certification).map((line) => `  ${line}`));
  const bad = results.checks.filter((check: CheckResult) => check.verdict === 'FAIL' || check.verdict === 'FLAKY' || check.verdict === 'ERROR');
  const badLine = (check: CheckResult) =>
    `  ${check.verdict} ${check.id} [${check.requirements.join(', ')}]: ${check.reason ?? ''}` +
    (check.basis ? `\n      ${describeBasis(check.basis)}` : '') +
    (check.verdict === 'FLAKY' ? (check.attempts ?? []).map((a) => `\n      ${attemptLine(a)}`).join('') : '');
  lines.push(...limited(bad, badLine, '  '));
  lines.push(...waiverLines(results));
  for (const error of results.errors) lines.push(`  run error: ${error.split('\n')[0]}`);
  lines.push(...loadLines(results));
  if (diff) lines.push(...baselineSummary(diff));
  if (report) lines.push(`  report: ${report.html}`, `  results: ${report.json}`, `  junit: ${report.junit}`);
  return lines.join('\n') + '\n';
}
