// The comparison with a baseline run (`ptas report --baseline`): computed
// when the report was written (reports/baseline.ts), drawn here.
import type { RunVerdict } from '../../../src/results/model.ts';
import type { BaselineDiff, CheckChange, LoadFigureChange } from '../../baseline.ts';
import { formatInt, formatMs, formatNumber, formatShare, formatTimestamp } from '../../format.ts';
import type { FigureUnit } from '../../load-figures.ts';
import { checkAnchor, checkKey } from './check-order.ts';
import { badge, h, withMarkers } from './dom.ts';

/** How a check row is marked: newly failing, newly passing, or otherwise changed. */
export interface DiffMark {
  kind: 'newly-failing' | 'newly-passing' | 'changed';
  text: string;
}

function wasText(change: CheckChange): string {
  return change.before ? `was ${change.before}` : 'new check';
}

/** Marks for the check rows, by checkKey. */
export function diffMarks(diff: BaselineDiff | undefined): Map<string, DiffMark> {
  const marks = new Map<string, DiffMark>();
  if (!diff) return marks;
  for (const c of diff.newlyFailing) marks.set(checkKey(c), { kind: 'newly-failing', text: `newly failing (${wasText(c)})` });
  for (const c of diff.newlyPassing) marks.set(checkKey(c), { kind: 'newly-passing', text: `newly passing (${wasText(c)})` });
  for (const c of diff.otherChanges) if (c.after) marks.set(checkKey(c), { kind: 'changed', text: wasText(c) });
  return marks;
}

function runVerdictBadge(verdict: RunVerdict): HTMLSpanElement {
  return h('span', { class: `badge rv-${verdict.replace(/ /g, '-')}` }, verdict);
}

function changeRow(c: CheckChange, multiTarget: boolean): HTMLTableRowElement {
  const anchor = checkAnchor(c, multiTarget);
  return h(
    'tr',
    null,
    h('td', null, c.after ? h('a', { href: `#${anchor}`, class: 'check-link', dataset: { check: anchor } }, c.id) : h('code', null, c.id), multiTarget ? h('span', { class: 'target' }, c.target) : null),
    h('td', null, c.requirements.join(', ')),
    h('td', null, c.before ? badge(c.before) : h('span', { class: 'muted' }, 'not run')),
    h('td', null, c.after ? badge(c.after) : h('span', { class: 'muted' }, 'not run')),
    h('td', null, c.reason ? withMarkers(c.reason) : ''),
  );
}

function changeTable(changes: readonly CheckChange[], multiTarget: boolean): HTMLTableElement {
  const head = h('tr', null, h('th', null, 'check'), h('th', null, 'requirements'), h('th', null, 'before'), h('th', null, 'now'), h('th', null, 'reason now'));
  return h('table', { class: 'diff-table changes' }, h('thead', null, head), h('tbody', null, changes.map((c) => changeRow(c, multiTarget))));
}

function figureValue(value: number | undefined, unit: FigureUnit): string {
  if (value === undefined || value === null) return '—';
  if (unit === 'share') return formatShare(value);
  if (unit === 'bytes') return `${formatInt(value)} B`;
  if (unit === 'ms') return formatMs(value);
  return `${formatNumber(value)} ${unit}`;
}

function loadRow(c: LoadFigureChange): HTMLTableRowElement {
  return h(
    'tr',
    { class: `load-${c.change}` },
    h('td', null, h('b', null, c.subject), ' ', c.figure),
    h('td', { class: 'num' }, figureValue(c.before, c.unit)),
    h('td', { class: 'num' }, figureValue(c.after, c.unit)),
    h('td', null, h('span', { class: `trend t-${c.change}` }, c.change), c.relative !== undefined ? ` ${c.relative > 0 ? '+' : ''}${(c.relative * 100).toFixed(1)} %` : ''),
  );
}

function loadTable(changes: readonly LoadFigureChange[]): HTMLTableElement {
  const head = h('tr', null, h('th', null, 'load figure'), h('th', null, 'before'), h('th', null, 'now'), h('th', null, 'change'));
  return h('table', { class: 'diff-table' }, h('thead', null, head), h('tbody', null, changes.map(loadRow)));
}

/** "Compared with the run of …: verdict A → B. N regressions." */
function comparedWith(diff: BaselineDiff): HTMLParagraphElement {
  const b = diff.baseline;
  return h(
    'p',
    null,
    'Compared with the run of ',
    h('b', null, formatTimestamp(b.startedAt)),
    ` against ${b.target} (suite ${b.suiteVersion}): verdict `,
    runVerdictBadge(diff.verdict.before),
    ' → ',
    runVerdictBadge(diff.verdict.after),
    '. ',
    h('b', { class: diff.regressions ? 'regressions' : '' }, `${diff.regressions} regression${diff.regressions === 1 ? '' : 's'}`),
    '.',
  );
}

export function renderDiff(container: HTMLElement, diff: BaselineDiff, multiTarget: boolean): void {
  container.appendChild(comparedWith(diff));
  for (const note of diff.notes) container.appendChild(h('p', { class: 'notice notice-info' }, note));
  const part = (title: string, changes: readonly CheckChange[], cls: string) =>
    h('div', { class: `diff-part ${cls}` }, h('h3', null, `${title} (${changes.length})`), changes.length ? changeTable(changes, multiTarget) : h('p', { class: 'muted' }, 'none'));
  container.appendChild(part('Newly failing', diff.newlyFailing, 'newly-failing'));
  container.appendChild(part('Newly passing', diff.newlyPassing, 'newly-passing'));
  if (diff.otherChanges.length) container.appendChild(part('Other verdict changes', diff.otherChanges, 'changed'));
  container.appendChild(
    h('div', { class: 'diff-part' }, h('h3', null, `Changed load figures (${diff.load.length})`), diff.load.length ? loadTable(diff.load) : h('p', { class: 'muted' }, 'none beyond their tolerance')),
  );
}
