// The Markdown job summary of `--reporter github`: the run verdict and why,
// the verdict counts, a table of the failing checks (requirement, clause,
// reason), the load figures and, with a baseline, the regressions. Text from
// a run can come from a hostile server, so every value is escaped for
// Markdown and HTML (GitHub renders both in a summary), and the summary stays
// far below GitHub's 1 MiB per step by listing at most a few hundred rows.
import type { CheckResult } from '../src/check/model.ts';
import { basisSource, verdictBasis } from '../src/check/basis.ts';
import { explainRunVerdict, verdictInputOf } from '../src/results/verdict.ts';
import type { RunResults } from '../src/results/model.ts';
import type { BaselineDiff, CheckChange } from './baseline.ts';
import { formatFigure } from './figure-format.ts';
import { formatDuration, formatTimestamp } from './format.ts';
import { loadFigures } from './load-figures.ts';
import { tallyVerdicts } from './verdict-tally.ts';

/** Rows of one table beyond which the summary points to the report. */
export const SUMMARY_ROW_LIMIT = 200;
/** A reason longer than this is cut in a table cell (the report has it whole). */
const CELL_CHARS = 400;

/**
 * Text for a Markdown table cell or line: HTML's &, < and > as entities;
 * backslash, code, emphasis, link brackets, table pipe and strikethrough
 * backslash-escaped (with [ and ] escaped, no link or image can form); line
 * breaks as spaces, other control characters dropped, long text cut.
 */
export function markdownText(text: string, maxChars = CELL_CHARS): string {
  const flat = text.replace(/\r\n|[\r\n\u2028\u2029]/g, ' ').replace(/[\u0000-\u001F\u007F]/g, '');
  const cut = flat.length > maxChars ? `${flat.slice(0, maxChars - 1)}…` : flat;
  return cut
    .replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!)
    .replace(/[\\`*_[\]|~]/g, (c) => `\\${c}`);
}

/** An identifier as inline code when that is safe, else as escaped text. */
function code(text: string): string {
  return /^[\w.:/@ -]+$/.test(text) ? `\`${text}\`` : markdownText(text);
}

function table(header: string[], rows: string[][], align?: string[]): string[] {
  return [`| ${header.join(' | ')} |`, `| ${(align ?? header.map(() => '---')).join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`)];
}

function limitedRows<T>(items: T[], row: (item: T) => string[]): { rows: string[][]; more: string[] } {
  const rows = items.slice(0, SUMMARY_ROW_LIMIT).map(row);
  const more = items.length > SUMMARY_ROW_LIMIT ? ['', `… and ${items.length - SUMMARY_ROW_LIMIT} more: see the report (index.html) in the bundle.`] : [];
  return { rows, more };
}

function heading(results: RunResults, diff?: BaselineDiff): string[] {
  const r = results.run;
  const why = explainRunVerdict(verdictInputOf(results));
  const title = diff ? `ptas: ${results.verdict}, compared with the baseline` : `ptas: ${results.verdict}`;
  const lines = [`## ${markdownText(title)}`, '', `**${markdownText(why)}**`, ''];
  lines.push(`Target ${code(r.target)}${r.implementation ? ` (${markdownText(r.implementation)})` : ''} · started ${formatTimestamp(r.startedAt)} · ${formatDuration(r.durationMs)} · ptas ${markdownText(r.suiteVersion)}, spec ${markdownText(r.specVersion)}, profile ${code(r.profileHash)}`);
  if (r.interrupted) lines.push('', `> **Interrupted:** ${markdownText(r.interrupted)}: checks that did not finish are missing.`);
  if (r.insecureTls) lines.push('', '> **TLS certificate verification was off (--insecure).**');
  return lines;
}

function counts(results: RunResults): string[] {
  const tally = tallyVerdicts(results.checks);
  return ['', ...table(tally.map((t) => markdownText(t.verdict)), [tally.map((t) => String(t.count))], tally.map(() => '---:'))];
}

function clauseCell(check: CheckResult): string {
  const basis = check.basis ?? verdictBasis(check.requirements);
  if (!basis) return '—';
  return `${markdownText(basisSource(basis))}: “${markdownText(basis.quote, 200)}”`;
}

function failing(results: RunResults): string[] {
  const bad = results.checks.filter((c) => ['FAIL', 'FLAKY', 'ERROR'].includes(c.verdict as string));
  if (!bad.length) return [];
  const manyTargets = new Set(results.checks.map((c) => c.target)).size > 1;
  const { rows, more } = limitedRows(bad, (c) => [
    `**${c.verdict}**`,
    code(c.id) + (manyTargets ? ` on ${code(c.target)}` : ''),
    c.requirements.map(code).join(', '),
    c.verdict === 'ERROR' ? 'could not run' : clauseCell(c),
    markdownText(c.reason ?? ''),
  ]);
  return ['', `### Failing checks (${bad.length})`, '', ...table(['Verdict', 'Check', 'Requirements', 'Clause', 'Reason'], rows), ...more];
}

function runErrors(results: RunResults): string[] {
  if (!results.errors.length) return [];
  return ['', `### Problems outside any check (${results.errors.length})`, '', ...results.errors.slice(0, SUMMARY_ROW_LIMIT).map((e) => `- ${markdownText(e)}`)];
}

function load(results: RunResults): string[] {
  const figures = loadFigures(results.load);
  if (!figures.length) return [];
  const rows = figures.map((f) => [markdownText(f.subject), markdownText(f.figure), formatFigure(f.value, f.unit)]);
  return ['', '### Load figures', '', ...table(['Measured', 'Figure', 'Value'], rows, ['---', '---', '---:'])];
}

function changeRow(c: CheckChange): string[] {
  return [code(c.id), c.requirements.map(code).join(', '), c.before ? markdownText(c.before) : 'new check', c.after ? markdownText(c.after) : 'not run', markdownText(c.reason ?? '')];
}

function regressions(diff: BaselineDiff | undefined): string[] {
  if (!diff) return [];
  const lines = ['', `### Compared with the baseline of ${formatTimestamp(diff.baseline.startedAt)}`, ''];
  lines.push(
    `Run verdict ${markdownText(diff.verdict.before)} → ${markdownText(diff.verdict.after)}: **${diff.regressions} regression${diff.regressions === 1 ? '' : 's'}**, ` +
      `${diff.newlyPassing.length} newly passing, ${diff.otherChanges.length} other changes, ${diff.load.length} load figures changed.`,
  );
  for (const note of diff.notes) lines.push('', `> ${markdownText(note)}`);
  if (diff.newlyFailing.length) {
    const { rows, more } = limitedRows(diff.newlyFailing, changeRow);
    lines.push('', '#### Regressions: newly failing', '', ...table(['Check', 'Requirements', 'Was', 'Now', 'Reason'], rows), ...more);
  }
  if (diff.load.length) {
    const rows = diff.load.map((c) => [markdownText(c.subject), markdownText(c.figure), formatFigure(c.before, c.unit), formatFigure(c.after, c.unit), c.change]);
    lines.push('', '#### Load figures that moved beyond their noise', '', ...table(['Measured', 'Figure', 'Before', 'After', 'Change'], rows));
  }
  return lines;
}

/** The job summary, Markdown, ending with a blank line so a following tool's summary starts cleanly. */
export function githubSummary(results: RunResults, diff?: BaselineDiff): string {
  return [...heading(results, diff), ...counts(results), ...failing(results), ...runErrors(results), ...load(results), ...regressions(diff), '', ''].join('\n');
}
