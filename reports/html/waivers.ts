// The report's "Waivers" section and the banner's notice about them, rendered
// when the report is written (as the banner is, reports/html/banner.ts): the
// waivers qualify the verdict, so they show even where scripts are blocked.
// Each waiver with its selector, reason, owner, tracking link, last day and
// status, and the checks it waived (or would have, or that no longer fail).
import type { RunResults } from '../../src/results/model.ts';
import type { WaiverOutcome, WaiversSection } from '../../src/results/waiver-model.ts';
import { escapeXml as esc } from '../escape.ts';
import { formatTimestamp } from '../format.ts';

/**
 * The one address in the page that leads outside it. A link is followed only
 * when the reader clicks it: nothing loads (the CSP still forbids every
 * request). Only http(s), so a tampered results.json cannot plant a
 * javascript: link; the schemas refuse other schemes already.
 */
function trackingLink(url: string): string {
  if (!/^https?:\/\//i.test(url)) return `<code>${esc(url)}</code>`;
  return `<a class="tracking" href="${esc(url)}" rel="noopener noreferrer" target="_blank">${esc(url)}</a>`;
}

/** The anchor of a check's row, as checkAnchor in reports/html/client/check-order.ts makes it. */
function checkAnchor(target: string, id: string, multiTarget: boolean): string {
  return `check-${multiTarget ? `${target}--${id}` : id}`;
}

function checksCell(outcome: WaiverOutcome, multiTarget: boolean): string {
  if (!outcome.checks.length) return '<span class="muted">none in this run</span>';
  return outcome.checks
    .map((c) => `<div><a href="#${esc(checkAnchor(c.target, c.id, multiTarget))}" class="check-link">${esc(c.id)}</a>${multiTarget ? ` <span class="target">${esc(c.target)}</span>` : ''} <span class="muted small">gave</span> <span class="badge v-${esc(c.verdict)}">${esc(c.verdict)}</span></div>`)
    .join('');
}

function waiverRow(outcome: WaiverOutcome, multiTarget: boolean): string {
  const w = outcome.waiver;
  const expects = `${esc(w.expect.verdict)}${w.expect.reason !== undefined ? ` with <q>${esc(w.expect.reason)}</q> in the reason` : ''}`;
  return `<tr class="waiver st-${outcome.status}" id="waiver-${esc(w.pointer.split('/').pop() ?? '')}" data-status="${outcome.status}">
<td><span class="waiver-status ws-${outcome.status}">${outcome.status}</span><div class="muted small waiver-note">${esc(outcome.note)}</div></td>
<td><span class="muted small">${w.selector.kind}</span> <code class="waiver-selector">${esc(w.selector.id)}</code><div class="muted small">${esc(w.pointer)}</div></td>
<td>${expects}</td>
<td class="waiver-reason">${esc(w.reason)}</td>
<td class="waiver-owner">${esc(w.owner)}</td>
<td>${trackingLink(w.tracking)}</td>
<td class="waiver-expires">${esc(w.expires)} <span class="muted small">(through 23:59 UTC)</span></td>
<td>${checksCell(outcome, multiTarget)}</td>
</tr>`;
}

function strictness(section: WaiversSection): string {
  return section.strict
    ? '<b>strict</b> (--strict-waivers): a stale or unmatched waiver makes the run INCOMPLETE'
    : 'not strict: stale and unmatched waivers are reported here but do not change the verdict';
}

/** The "Waivers" section; empty when the run was given no waiver file. */
export function renderWaivers(results: RunResults): string {
  const section = results.waivers;
  if (!section) return '';
  const multiTarget = new Set(results.checks.map((c) => c.target)).size > 1;
  const head = `<p class="waivers-file">Waiver file <code>${esc(section.file)}</code> · sha256 <code>${esc(section.sha256)}</code> · expiry judged at ${esc(formatTimestamp(section.evaluatedAt))} · ${strictness(section)}.</p>`;
  const table = section.outcomes.length
    ? `<div class="table-scroll"><table class="waivers"><thead><tr><th>status</th><th>selects</th><th>expects</th><th>reason</th><th>owner</th><th>tracking</th><th>valid through</th><th>checks</th></tr></thead><tbody>${section.outcomes.map((o) => waiverRow(o, multiTarget)).join('')}</tbody></table></div>`
    : '<p class="muted">The waiver file holds no waiver.</p>';
  return `<section id="waivers"><h2>Waivers</h2>${head}${table}</section>`;
}

/** One notice for the banner: how many checks were waived, and which waivers did not apply. */
export function waiversNotice(results: RunResults): string {
  const section = results.waivers;
  if (!section) return '';
  const count = (status: WaiverOutcome['status']) => section.outcomes.filter((o) => o.status === status).length;
  const waived = results.checks.filter((c) => c.verdict === 'WAIVED').length;
  const problems = (['expired', 'stale', 'unmatched'] as const).filter((s) => count(s)).map((s) => `${count(s)} ${s}`);
  const text = `<b>${waived} check${waived === 1 ? '' : 's'} waived</b> by ${count('applied')} of ${section.outcomes.length} waiver${section.outcomes.length === 1 ? '' : 's'}${problems.length ? `; ${problems.join(', ')}` : ''}. <a href="#waivers">See the waivers</a>.`;
  return `<div class="notice ${problems.length ? 'notice-warn' : 'notice-info'}" id="notice-waivers">${text}</div>`;
}
