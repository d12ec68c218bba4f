// The doctor's terminal output: a heading naming the target and the profile,
// one table row per operation as soon as it is done (result, operation with
// its profile key, request sent, answer), the problem and its fix beneath a
// PROBLEM row, a closing count, and the keys a certifiable run still needs.
// --json prints the same as one object.
import type { DoctorRow } from './model.ts';
import { needKeysText, type CertificationNeed } from '../certify/certification-needs.ts';

const RESULT_WIDTH = 8;
const OPERATION_WIDTH = 56;
const REQUEST_WIDTH = 42;

function cell(text: string, width: number, clip: boolean): string {
  const fitted = clip && text.length > width - 1 ? `${text.slice(0, width - 2)}…` : text;
  return fitted.length >= width ? `${fitted} ` : fitted.padEnd(width);
}

export function heading(target: string, profileSource: string): string {
  const header = cell('RESULT', RESULT_WIDTH, false) + cell('OPERATION (PROFILE KEY)', OPERATION_WIDTH, false) + cell('REQUEST SENT', REQUEST_WIDTH, false) + 'ANSWER';
  return `ptas doctor: ${target}\nprofile: ${profileSource}\n\n${header}\n`;
}

export function renderRow(row: DoctorRow): string {
  const line =
    cell(row.outcome, RESULT_WIDTH, false) +
    // The operation and key are never clipped: the key is what a reader changes.
    cell(`${row.operation} (${row.key})`, OPERATION_WIDTH, false) +
    cell(row.request ?? '-', REQUEST_WIDTH, true) +
    (row.answer ?? '');
  const indent = ' '.repeat(RESULT_WIDTH);
  const details = row.outcome === 'PROBLEM' ? `${indent}problem: ${row.problem}\n${indent}fix: ${row.fix}\n` : '';
  return `${line.trimEnd()}\n${details}`;
}

export interface DoctorSummary {
  target: string;
  profile: string;
  durationMs: number;
  requests: number;
  rows: DoctorRow[];
  broken: string[];
  /** The profile keys a certifiable run still needs: without them required checks SKIP (app/certify/certification-needs.ts). */
  certificationNeeds: CertificationNeed[];
}

/** The keys certification still needs, each with the required checks that SKIP without it. */
export function renderCertificationNeeds(needs: readonly CertificationNeed[]): string {
  if (!needs.length) return 'certification: the profile sets every key the required checks need\n';
  const checks = new Set(needs.flatMap((need) => need.checks)).size;
  const lines = needs.map((need) => `  ${needKeysText(need)}: ${need.checks.join(', ')}\n`);
  return `certification: ${checks} required check${checks === 1 ? '' : 's'} would SKIP, and ptas verify refuses a bundle with one; set\n${lines.join('')}`;
}

export function renderSummary(summary: DoctorSummary): string {
  const count = (outcome: DoctorRow['outcome']) => summary.rows.filter((r) => r.outcome === outcome).length;
  const problems = count('PROBLEM');
  const verdict = problems ? `${problems} problem${problems === 1 ? '' : 's'}` : 'every configured operation works';
  return `\n${verdict}: ${count('OK')} OK, ${problems} PROBLEM, ${count('SKIPPED')} SKIPPED; ${summary.requests} requests in ${(summary.durationMs / 1000).toFixed(1)} s\n${renderCertificationNeeds(summary.certificationNeeds)}`;
}

export function renderJson(summary: DoctorSummary): string {
  return `${JSON.stringify(summary, null, 2)}\n`;
}
