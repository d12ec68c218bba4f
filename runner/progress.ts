// One terminal line per finished check, as a run's checks end: the collector
// prints the tests' (counted against the tests planned), the orchestrator the
// cross-cutting checks' it adds after them (app/run/conformance.ts).
import type { CheckResult } from '../src/check/model.ts';

/** `label` leads the line ("[ 3/95]"); a verdict other than PASS gets its reason on the next line, under the id. */
export function progressLine(check: Pick<CheckResult, 'verdict' | 'id' | 'title' | 'durationMs' | 'reason'>, label: string): string {
  const reason = check.reason && check.verdict !== 'PASS' ? `\n${' '.repeat(label.length + 9)}${check.reason}` : '';
  return `${label} ${check.verdict.padEnd(6)} ${check.id}  ${check.title} (${check.durationMs} ms)${reason}\n`;
}

export function counterLabel(position: number, total: number): string {
  return `[${String(position).padStart(String(total).length)}/${total}]`;
}
