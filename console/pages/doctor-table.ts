// "Check": ptas doctor's table for the profile in the editor, each broken
// key with its fix.
import type { DoctorSummary } from '../../app/serve/console/api-types.ts';
import { h, notice } from '../dom.ts';

export function doctorTable(summary: DoctorSummary): HTMLElement {
  const parts: HTMLElement[] = [];
  if (summary.error) parts.push(notice('danger', summary.error));
  if (summary.rows.length) {
    parts.push(
      summary.brokenKeys.length
        ? h('p', { class: 'doctor-summary' }, `${summary.brokenKeys.length} broken key${summary.brokenKeys.length === 1 ? '' : 's'}: `, ...summary.brokenKeys.flatMap((k, i) => [i ? ', ' : '', h('code', null, k)]))
        : h('p', { class: 'doctor-summary' }, 'Every operation the profile describes works.'),
    );
    parts.push(
      h(
        'table',
        { class: 'list doctor' },
        h('thead', null, h('tr', null, ...['Outcome', 'Operation', 'Key', 'Request', 'Answer', 'Problem', 'Fix'].map((t) => h('th', null, t)))),
        h(
          'tbody',
          null,
          ...summary.rows.map((r) =>
            h(
              'tr',
              { class: `outcome-${r.outcome.toLowerCase()}`, dataset: { key: r.key, outcome: r.outcome } },
              h('td', null, h('span', { class: `badge outcome-${r.outcome.toLowerCase()}` }, r.outcome)),
              h('td', null, r.operation),
              h('td', null, h('code', null, r.key)),
              h('td', null, r.request ? h('code', null, r.request) : ''),
              h('td', null, r.answer ?? ''),
              h('td', { class: 'problem' }, r.problem ?? ''),
              h('td', { class: 'fix' }, r.fix ?? ''),
            ),
          ),
        ),
      ),
    );
  }
  return h('div', { class: 'doctor-result' }, ...parts);
}
