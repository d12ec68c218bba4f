// The list of implementations: name, base URL, last verdict and date, and the
// trend of their latest runs.
import type { ImplementationSummary } from '../../app/serve/console/api-types.ts';
import { getJson } from '../api.ts';
import { fill, h, link } from '../dom.ts';
import { dateTime, verdictBadge } from '../format.ts';
import { markReady } from '../router.ts';
import { sparkline } from '../sparkline.ts';

function row(s: ImplementationSummary): HTMLTableRowElement {
  const last = s.lastRun;
  return h(
    'tr',
    { dataset: { implementation: s.id } },
    h('td', { class: 'name' }, link(`/console/implementations/${encodeURIComponent(s.id)}`, s.name)),
    h('td', { class: 'base-url' }, s.baseUrl ? h('code', null, s.baseUrl) : h('span', { class: 'muted' }, 'not set')),
    h(
      'td',
      { class: 'last-run' },
      last?.verdict ? verdictBadge(last.verdict) : last ? h('span', { class: 'muted' }, 'running') : h('span', { class: 'muted' }, 'never run'),
      last?.finishedAt ? h('span', { class: 'date' }, ' ', dateTime(last.finishedAt)) : null,
    ),
    h('td', { class: 'trend' }, sparkline(s.trend)),
  );
}

export async function implementationsPage(main: HTMLElement): Promise<void> {
  const summaries = await getJson<ImplementationSummary[]>('/api/implementations');
  const table = summaries.length
    ? h(
        'table',
        { class: 'list implementations' },
        h('thead', null, h('tr', null, h('th', null, 'Name'), h('th', null, 'Base URL'), h('th', null, 'Last run'), h('th', null, 'Trend'))),
        h('tbody', null, ...summaries.map(row)),
      )
    : h('p', { class: 'muted' }, 'No implementation yet: create one from ptas init’s starter profile.');
  fill(
    main,
    h('div', { class: 'page-head' }, h('h1', null, 'Implementations'), Object.assign(link('/console/implementations/new', 'New implementation'), { className: 'button' })),
    table,
  );
  markReady();
}
