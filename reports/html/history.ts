// history.html, the trend page of `ptas report --history`: one self-contained
// file (the report's own stylesheet plus reports/html/history.css, no script,
// no request leaves it: its Content-Security-Policy allows only that inline
// style) showing the regressions, the unstable checks, the verdict counts per
// night, the load figures over the nights and the grid of checks × nights.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { History, HistoryCell, HistoryNight, HistoryRow } from '../history.ts';
import { escapeXml as esc } from '../escape.ts';
import { formatTimestamp } from '../format.ts';
import { isKnownVerdict } from '../verdict-tally.ts';
import { pageStyle } from './assets.ts';
import { contentSecurityPolicy } from './embed.ts';
import { trendChart } from './history-chart.ts';
import { unstableSection } from './history-unstable.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const RUN_VERDICTS = ['CONFORMANT', 'CONFORMANT WITH WAIVERS', 'NOT CONFORMANT', 'INCOMPLETE'];

function historyStyle(): string {
  return `${pageStyle()}\n${readFileSync(path.join(here, 'history.css'), 'utf8')}`;
}

/** A night as a column label: its start in UTC, to the minute. */
export function nightLabel(startedAt: string): string {
  return formatTimestamp(startedAt).slice(0, 16);
}

/** A verdict's CSS class; a verdict this version does not know gets a neutral one (never a class made from data). */
const verdictClass = (v: string) => (isKnownVerdict(v) ? `v-${v}` : 'v-other');
const runVerdictClass = (v: string) => (RUN_VERDICTS.includes(v) ? `rv-${v.replace(/ /g, '-')}` : 'rv-other');
/** A verdict in a grid cell: one or two letters (WARN and WAIVED, FAIL and FLAKY must differ), or the first three of one this version does not know. */
const SHORT: Record<string, string> = { PASS: 'P', FAIL: 'F', WARN: 'W', REVIEW: 'R', SKIP: 'S', ERROR: 'E', WAIVED: 'Wv', FLAKY: 'Fl' };
const shortVerdict = (v: string) => SHORT[v] ?? v.slice(0, 3);

function cell(c: HistoryCell, night: HistoryNight): string {
  const when = nightLabel(night.startedAt);
  if (c.verdict === undefined) return `<td class="cell absent" title="${esc(`${when}: did not run`)}">·</td>`;
  const tip = `${when}: ${c.verdict}${c.regression ? ' (REGRESSION since the night before)' : ''}${c.reason ? ` — ${c.reason}` : ''}`;
  const mark = c.regression ? '<b class="mark">▲</b>' : '';
  return `<td class="cell ${verdictClass(c.verdict)}${c.regression ? ' regression' : ''}" data-verdict="${esc(c.verdict)}" title="${esc(tip)}">${esc(shortVerdict(c.verdict))}${mark}</td>`;
}

function gridRow(row: HistoryRow, history: History): string {
  const target = history.manyTargets ? ` <span class="muted small">on ${esc(row.target)}</span>` : '';
  const tally = row.tally.map((t) => `${t.count} ${t.verdict}`).join(' · ');
  const cells = row.cells.map((c, n) => cell(c, history.nights[n]!)).join('');
  const classes = [row.lastRegression >= 0 ? 'regressed' : '', row.unstable ? 'unstable' : ''].filter(Boolean).join(' ');
  const unstable = row.unstable ? ' <span class="unstable-mark" title="unstable: two verdicts across nights of one suite version and profile (see Unstable checks)">≈ unstable</span>' : '';
  return `<tr${classes ? ` class="${classes}"` : ''} data-check="${esc(row.id)}"><th><span class="check-id">${esc(row.id)}</span>${unstable}${target}<div class="reqs">${esc(row.requirements.join(', '))}</div></th><td class="tally">${esc(tally)}</td>${cells}</tr>`;
}

function nightHeader(night: HistoryNight): string {
  const [date, time] = nightLabel(night.startedAt).split(' ');
  const regressed = night.regressions ? ` class="regressed"` : '';
  const mark = night.regressions ? `<br><span class="regression-mark">▲ ${night.regressions}</span>` : '';
  return `<th${regressed} title="${esc(`${formatTimestamp(night.startedAt)} · ${night.verdict} · ${night.file}`)}">${esc(date ?? '')}<br>${esc(time ?? '')}${mark}</th>`;
}

function legend(): string {
  const samples = Object.entries(SHORT).map(([v, short]) => `<span><span class="cell-sample ${verdictClass(v)}">${short}</span>${v}</span>`);
  samples.push(
    '<span><span class="cell-sample">·</span>did not run that night</span>',
    '<span><span class="cell-sample regression-mark">▲</span>regression: FAIL or ERROR after a night without</span>',
    '<span><span class="cell-sample unstable-mark">≈</span>unstable: two verdicts across nights of one suite version and profile</span>',
  );
  return `<div class="legend">${samples.join('')}</div>`;
}

function grid(history: History): string {
  if (!history.rows.length) return '<p class="muted">No night ran any check.</p>';
  const head = `<tr><th>Check (regressions first)</th><th>Over the nights</th>${history.nights.map(nightHeader).join('')}</tr>`;
  return `${legend()}<div class="table-scroll"><table class="history-grid"><thead>${head}</thead><tbody>${history.rows.map((r) => gridRow(r, history)).join('')}</tbody></table></div>`;
}

function counts(history: History): string {
  const names = [...new Set(history.nights.flatMap((n) => n.counts.map((c) => c.verdict)))];
  const header = `<tr><th>Night</th>${history.nights.map((n) => `<th>${esc(nightLabel(n.startedAt))}</th>`).join('')}</tr>`;
  const verdictRow = `<tr><th>Run verdict</th>${history.nights.map((n) => `<td><span class="badge ${runVerdictClass(n.verdict)}">${esc(n.verdict)}</span></td>`).join('')}</tr>`;
  const rows = names.map((v) => `<tr><th class="${verdictClass(v)}">${esc(v)}</th>${history.nights.map((n) => `<td>${n.counts.find((c) => c.verdict === v)?.count ?? 0}</td>`).join('')}</tr>`);
  const regressions = `<tr><th class="regression-mark">Regressions</th>${history.nights.map((n, i) => `<td>${i === 0 ? '—' : n.regressions}</td>`).join('')}</tr>`;
  const errors = `<tr><th>Problems outside any check</th>${history.nights.map((n) => `<td>${n.errors}</td>`).join('')}</tr>`;
  return `<div class="table-scroll"><table class="history-counts"><thead>${header}</thead><tbody>${verdictRow}${rows.join('')}${regressions}${errors}</tbody></table></div>`;
}

function regressionItems(history: History, n: number): string[] {
  return history.rows
    .filter((row) => row.cells[n]!.regression)
    .map((row) => {
      const c = row.cells[n]!;
      const was = row.cells[n - 1]!.verdict ?? 'not run';
      return `<li data-check="${esc(row.id)}"><span class="night">${esc(nightLabel(history.nights[n]!.startedAt))}</span> <span class="regression-mark">▲</span> <b>${esc(c.verdict!)}</b> <span class="check-id">${esc(row.id)}</span> [${esc(row.requirements.join(', '))}] (was ${esc(was)})${c.reason ? `: <span class="reason">${esc(c.reason)}</span>` : ''}</li>`;
    });
}

/** The latest night's regressions in full; earlier nights' folded (the grid shows them too). */
function regressions(history: History): string {
  const latest = history.nights.length - 1;
  const now = latest > 0 ? regressionItems(history, latest) : [];
  const earlier: string[] = [];
  for (let n = latest - 1; n > 0; n--) earlier.push(...regressionItems(history, n));
  const head = now.length
    ? `<ol class="regression-list" id="latest-regressions">${now.join('')}</ol>`
    : `<p id="latest-regressions">No check regressed in the latest night${latest > 0 ? '' : ' (a single night has nothing to compare with)'}.</p>`;
  const fold = earlier.length ? `<details><summary>Earlier nights: ${earlier.length} regression${earlier.length === 1 ? '' : 's'}</summary><ol class="regression-list" id="earlier-regressions">${earlier.join('')}</ol></details>` : '';
  return head + fold;
}

function load(history: History): string {
  if (!history.figures.length) return '<p class="muted">No night measured a 429 onset, a 413 boundary or a load profile\'s latency.</p>';
  const labels = history.nights.map((n) => nightLabel(n.startedAt));
  return `<div class="charts">${history.figures.map((f) => trendChart(f, labels)).join('')}</div>`;
}

function banner(history: History): string {
  const first = history.nights[0]!;
  const last = history.nights[history.nights.length - 1]!;
  const cls = RUN_VERDICTS.includes(last.verdict) ? `b-${last.verdict.replace(/ /g, '-')}` : 'b-other';
  const span = history.nights.length === 1 ? `1 night, ${formatTimestamp(first.startedAt)}` : `${history.nights.length} nights, ${formatTimestamp(first.startedAt)} to ${formatTimestamp(last.startedAt)}`;
  const unstable = history.unstable.length ? ` · ${history.unstable.length} unstable check${history.unstable.length === 1 ? '' : 's'}` : '';
  const news = history.nights.length > 1 ? ` · ${last.regressions} regression${last.regressions === 1 ? '' : 's'} in the latest night${unstable}` : '';
  const targets = [...new Set(history.nights.map((n) => n.target))];
  return `<header class="banner ${cls}"><div class="banner-inner"><div class="verdict-line"><span class="verdict" id="verdict">${esc(last.verdict)}</span><span class="verdict-why">latest night · ${esc(span)}${esc(news)}</span></div><div class="target-line">${targets.map((t) => `<code>${esc(t)}</code>`).join(' ')}</div></div></header>`;
}

export function renderHistoryHtml(history: History): string {
  if (!history.nights.length) throw new Error('renderHistoryHtml: a history needs at least one night');
  const style = historyStyle();
  const csp = contentSecurityPolicy(undefined, style);
  const last = history.nights[history.nights.length - 1]!;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(`ptas history: ${history.nights.length} night${history.nights.length === 1 ? '' : 's'}, latest ${last.verdict}`)}</title>
<style>${style}</style>
</head>
<body>
${banner(history)}
<nav class="toc"><a href="#regressions">Regressions</a><a href="#unstable">Unstable checks</a><a href="#counts">Verdicts per night</a><a href="#load">Load figures</a><a href="#grid">Checks × nights</a></nav>
<main>
<section id="regressions"><h2>Regressions</h2><p class="history-note">A check that FAILs or ERRORs after a night where it did not (or did not run): what <code>ptas report --baseline --fail-on-regression</code> exits 1 on.</p>${regressions(history)}</section>
${unstableSection(history.unstable, nightLabel, history.manyTargets)}
<section id="counts"><h2>Verdict counts per night</h2>${counts(history)}</section>
<section id="load"><h2>Load figures per night</h2><p class="history-note">429 onset, 413 boundary (smallest body answered 413) and p95 latency of each load profile; a gap is a night that did not measure it.</p>${load(history)}</section>
<section id="grid"><h2>Checks × nights</h2>${grid(history)}</section>
</main>
<footer>Written by ptas-conformance from ${history.nights.length} results file${history.nights.length === 1 ? '' : 's'} (hover a night's column heading for its file) · no script, no request leaves this page</footer>
</body>
</html>
`;
}
