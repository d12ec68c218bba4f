// The lab's audit log (app/serve/audit.ts), for an admin: the latest actions,
// newest first: when, who (the token and its role), by which face (API,
// console, `ptas serve token`), what and on what. Read from the API for CI
// (GET /api/audit) with the session.
import type { AuditEntry } from '../../app/serve/audit.ts';
import { getJson } from '../api.ts';
import { fill, h } from '../dom.ts';
import { dateTime } from '../format.ts';
import { markReady } from '../router.ts';

const SHOWN = 500;

function targetText(target: AuditEntry['target']): string {
  return Object.entries(target ?? {})
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
}

export async function auditPage(main: HTMLElement): Promise<void> {
  const { entries } = await getJson<{ entries: AuditEntry[] }>(`/api/audit?limit=${SHOWN}`);
  fill(
    main,
    h('div', { class: 'page-head' }, h('h1', null, 'Audit log')),
    h('p', { class: 'muted' }, `The latest ${entries.length} actions, newest first: sign-ins, and every change the API or the console made, with the token that made it. ptas-data/audit.jsonl holds them all.`),
    h(
      'table',
      { class: 'list audit', attrs: { id: 'audit' } },
      h('thead', null, h('tr', null, ...['When', 'Who', 'Via', 'Action', 'On'].map((t) => h('th', null, t)))),
      h(
        'tbody',
        null,
        ...[...entries].reverse().map((e) =>
          h(
            'tr',
            { class: 'audit-row', dataset: { action: e.action, actor: e.actor } },
            h('td', null, dateTime(e.at)),
            h('td', null, e.actor, e.role ? h('span', { class: 'muted' }, ` (${e.role})`) : null),
            h('td', null, e.via),
            h('td', null, h('code', null, e.action)),
            h('td', null, targetText(e.target)),
          ),
        ),
      ),
    ),
  );
  markReady();
}
