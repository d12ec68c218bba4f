// The trend page's unstable checks (History.unstable, src/results/instability.ts):
// each check whose verdict differs between nights of one suite version and
// profile, whose the instability is (on the bundled reference, the suite's
// own defect), and what the two nights observed, side by side.
import type { Observation, UnstableCheck } from '../../src/results/instability.ts';
import { escapeXml as esc } from '../escape.ts';
import { isKnownVerdict } from '../verdict-tally.ts';

/** A night as the grid's columns name it (history.ts nightLabel). */
type NightLabel = (startedAt: string) => string;

const badge = (verdict: string) => `<span class="badge ${isKnownVerdict(verdict) ? `v-${verdict}` : 'v-other'}">${esc(verdict)}</span>`;
const list = (items: readonly string[]) => (items.length ? `<ul>${items.map((item) => `<li>${item}</li>`).join('')}</ul>` : '<span class="muted">—</span>');

/** The rows of the side-by-side table: what each night observed, line by line. */
const ROWS: Array<[string, (o: Observation) => string]> = [
  ['Verdict', (o) => badge(o.verdict)],
  ['Reason', (o) => (o.reason ? esc(o.reason) : '<span class="muted">—</span>')],
  ['Rests on', (o) => (o.basis ? esc(o.basis) : '<span class="muted">—</span>')],
  ['The check said', (o) => list(o.claims.map((c) => `<b>${esc(c.level)}</b> ${esc(c.message)}`))],
  ['First exchanges', (o) => list(o.evidence.map((line) => `<code>${esc(line)}</code>`))],
];

function sideBySide({ earlier, later }: UnstableCheck['observations'], nightLabel: NightLabel): string {
  const heading = (what: string, o: Observation) => `<th title="${esc(o.run)}">${what}: ${esc(nightLabel(o.startedAt))}</th>`;
  const head = `<tr><th></th>${heading('Before', earlier)}${heading('Latest', later)}</tr>`;
  const body = ROWS.map(([name, cell]) => `<tr><th>${name}</th><td>${cell(earlier)}</td><td>${cell(later)}</td></tr>`).join('');
  return `<table class="side-by-side"><thead>${head}</thead><tbody>${body}</tbody></table>`;
}

function unstableCheck(check: UnstableCheck, nightLabel: NightLabel, manyTargets: boolean): string {
  const target = manyTargets ? ` <span class="muted small">on ${esc(check.target)}</span>` : '';
  const verdicts = check.verdicts.map((v) => `${esc(v.verdict)} ${v.count}×`).join(', ');
  return (
    `<div class="unstable-check attribution-${check.attribution}" data-check="${esc(check.id)}" data-attribution="${check.attribution}">` +
    `<h3><span class="unstable-mark">≈</span> <span class="check-id">${esc(check.id)}</span> ${esc(check.title)}${target}</h3>` +
    `<p class="attribution">Whose: ${esc(check.attributed)}.</p>` +
    `<p class="history-note">${verdicts} over the nights of ${esc(check.sameRuns)}.</p>` +
    `${sideBySide(check.observations, nightLabel)}</div>`
  );
}

/** The page's section, with the checks or the sentence that there are none. */
export function unstableSection(unstable: readonly UnstableCheck[], nightLabel: NightLabel, manyTargets: boolean): string {
  const note =
    '<p class="history-note">A check must give one verdict on one implementation. These gave two across nights of the same suite version and profile (for the bundled reference: the same faults, variants and conditions): on the bundled reference, a defect of the suite; elsewhere, the implementation’s.</p>';
  const body = unstable.length ? unstable.map((check) => unstableCheck(check, nightLabel, manyTargets)).join('') : '<p id="no-unstable">No check gave two verdicts across nights of one suite version and profile.</p>';
  return `<section id="unstable"><h2>Unstable checks</h2>${note}${body}</section>`;
}
