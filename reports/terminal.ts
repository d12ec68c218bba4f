// The short terminal summary printed at the end of `ptas run`.
import type { RunResults } from '../src/results/model.ts';
import type { WrittenReport } from './write.ts';

export function terminalSummary(results: RunResults, report?: WrittenReport): string {
  const c = results.counts;
  const lines = [
    '',
    `${results.verdict}  ${results.run.target}`,
    `  ${c.PASS} pass, ${c.FAIL} fail, ${c.WARN} warn, ${c.REVIEW} review, ${c.SKIP} skip, ${c.ERROR} error in ${(results.run.durationMs / 1000).toFixed(1)} s`,
  ];
  const bad = results.checks.filter((check) => check.verdict === 'FAIL' || check.verdict === 'ERROR');
  for (const check of bad) lines.push(`  ${check.verdict} ${check.id} [${check.requirements.join(', ')}]: ${check.reason ?? ''}`);
  for (const error of results.errors) lines.push(`  run error: ${error.split('\n')[0]}`);
  if (report) lines.push(`  report: ${report.html}`, `  results: ${report.json}`, `  junit: ${report.junit}`);
  return lines.join('\n') + '\n';
}
