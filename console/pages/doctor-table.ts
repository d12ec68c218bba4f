// "Check": ptas doctor's table for the profile in the editor, each broken
// key with its fix, and the keys a certifiable run still needs.
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
  if (summary.certificationNeeds) parts.push(certificationNeeds(summary.certificationNeeds));
  return h('div', { class: 'doctor-result' }, ...parts);
}

/** Each key (or choice of keys) certification still needs, with the required checks that SKIP without it: ptas verify refuses such a bundle. */
function certificationNeeds(needs: NonNullable<DoctorSummary['certificationNeeds']>): HTMLElement {
  if (!needs.length) return h('p', { class: 'doctor-certification', attrs: { id: 'certification-needs' } }, 'Certification: the profile sets every key the required checks need.');
  const checks = new Set(needs.flatMap((need) => need.checks)).size;
  return h(
    'div',
    { class: 'doctor-certification', attrs: { id: 'certification-needs' } },
    h('p', { class: 'doctor-summary' }, `Certification: ${checks} required check${checks === 1 ? '' : 's'} would SKIP, and ptas verify refuses a bundle with one. Set:`),
    h(
      'ul',
      null,
      ...needs.map((need) =>
        h('li', { dataset: { keys: need.keys.join(' ') } }, ...need.keys.flatMap((key, i) => [i ? ' or ' : '', h('code', null, key)]), ` — ${need.checks.join(', ')}`),
      ),
    ),
  );
}
