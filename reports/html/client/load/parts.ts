// What every article of the load section is made of: a heading naming the
// probe's check, a list of figures, and step tables.
import type { PageCheck } from '../../page-data.ts';
import { formatNumber } from '../../../format.ts';
import { checkAnchor } from '../check-order.ts';
import { badge, h, type Child } from '../dom.ts';

/** A figure: its name, its value, and a class (fig-key, fig-bad); false leaves it out. */
export type Figure = [term: string, value: string, cls?: string] | false | undefined;

export function figures(pairs: readonly Figure[]): HTMLDListElement {
  const shown = pairs.filter((p): p is Exclude<Figure, false | undefined> => Boolean(p));
  return h('dl', { class: 'figures' }, shown.map(([term, value, cls]) => h('div', { class: cls || '' }, h('dt', null, term), h('dd', null, value))));
}

/** A cell: numbers are right-aligned and formatted. */
export type Cell = string | number | HTMLElement;

export function table(headers: readonly string[], rows: ReadonlyArray<readonly Cell[]>, cls?: string): HTMLDivElement {
  const cell = (c: Cell) => h('td', { class: typeof c === 'number' ? 'num' : '' }, typeof c === 'number' ? formatNumber(c) : c);
  return h(
    'div',
    { class: 'table-scroll' },
    h('table', { class: `steps ${cls || ''}` }, h('thead', null, h('tr', null, headers.map((x) => h('th', null, x)))), h('tbody', null, rows.map((cells) => h('tr', null, cells.map(cell))))),
  );
}

/** What the heading of a probe needs of it. */
export interface ProbeHead {
  checkId: string;
  operation: string;
  verdict: string;
  reason?: string;
}

export function probeHeading(probe: ProbeHead, title: string, checksById: ReadonlyMap<string, PageCheck>): HTMLElement {
  const check = checksById.get(probe.checkId);
  const link: Child = check
    ? h('a', { href: `#${checkAnchor(check, false)}`, class: 'check-link', dataset: { check: checkAnchor(check, false) } }, probe.checkId)
    : h('code', null, probe.checkId);
  return h('header', { class: 'probe-head' }, h('h3', null, badge(probe.verdict), ' ', title, ' ', h('span', { class: 'muted' }, probe.operation)), h('p', null, link, probe.reason ? [' — ', probe.reason] : ''));
}
