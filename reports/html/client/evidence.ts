// The evidence of one check, rendered when its row is first opened: what an
// implementer needs to reproduce and fix a failure without asking anyone.
import type { Finding, TimelineEntry } from '../../../src/check/model.ts';
import type { TraceabilityRow } from '../../../src/results/model.ts';
import { formatMs } from '../../format.ts';
import type { CheckEvidence, PageCheck } from '../page-data.ts';
import { basisLine } from './basis.ts';
import { anchorId, badge, h, withMarkers } from './dom.ts';
import { exchangeList } from './exchange.ts';

function detailsBlock(details: Record<string, unknown> | undefined): HTMLDivElement | null {
  const entries = Object.entries(details || {});
  if (entries.length === 0) return null;
  const value = (v: unknown) => (v !== null && typeof v === 'object' ? h('pre', null, withMarkers(JSON.stringify(v, null, 2))) : h('code', null, withMarkers(String(v))));
  return h(
    'div',
    { class: 'details' },
    h('h5', null, 'Expected and observed'),
    h('table', { class: 'kv' }, h('tbody', null, entries.map(([key, v]) => h('tr', null, h('th', null, key), h('td', null, value(v)))))),
  );
}

function findingItem(f: Finding): HTMLLIElement {
  return h(
    'li',
    null,
    badge(f.level),
    ' ',
    withMarkers(f.message),
    f.basis ? basisLine(f.basis) : null,
    f.details ? h('pre', { class: 'finding-details' }, withMarkers(JSON.stringify(f.details, null, 2))) : null,
  );
}

function findingsBlock(findings: readonly Finding[]): HTMLDivElement | null {
  if (!findings.length) return null;
  return h('div', { class: 'findings' }, h('h5', null, `Findings (${findings.length})`), h('ul', null, findings.map(findingItem)));
}

function timelineBlock(timeline: readonly TimelineEntry[]): HTMLDivElement | null {
  if (!timeline.length) return null;
  const head = h('tr', null, h('th', null, 't'), h('th', null, 'event'), h('th', null, 'detail'));
  const rows = timeline.map((t) => h('tr', null, h('td', { class: 'num' }, `+${formatMs(t.atMs)}`), h('td', null, t.event), h('td', null, withMarkers(t.detail || ''))));
  return h('div', { class: 'timeline' }, h('h5', null, 'Timeline'), h('table', null, h('thead', null, head), h('tbody', null, rows)));
}

/** What the spec demands, so the reader needs no other document to judge the failure. */
function requirementsBlock(check: PageCheck, requirements: ReadonlyMap<string, TraceabilityRow>): HTMLDivElement {
  return h(
    'div',
    { class: 'spec-requirements' },
    h('h5', null, check.requirements.length === 1 ? 'Spec requirement' : 'Spec requirements'),
    check.requirements.map((id) => {
      const r = requirements.get(id);
      return h(
        'p',
        null,
        h('a', { class: 'req', href: `#${anchorId('req', id)}` }, id),
        r ? [' ', h('span', { class: 'clause-ref' }, `clause ${r.clause}`), ' ', h('span', { class: `sev sev-${r.level}` }, r.level), ' ', r.text] : h('span', { class: 'muted' }, ' not in this run\'s catalogue'),
      );
    }),
  );
}

/** The exchanges and timeline, or why they cannot be shown. */
function recorded(evidence: CheckEvidence | Error): Array<HTMLElement | null> {
  if (evidence instanceof Error) {
    return [h('p', { class: 'notice notice-warn' }, `The exchanges could not be expanded (${evidence.message}). results.json next to this file holds them.`)];
  }
  const exchanges = evidence.evidence;
  return [
    timelineBlock(evidence.timeline || []),
    ...(exchanges.length
      ? [h('h5', null, `HTTP exchanges (${exchanges.length}), secrets redacted`), exchangeList(exchanges)]
      : [h('p', { class: 'muted' }, 'No HTTP exchange was recorded for this check.')]),
  ];
}

export function renderEvidence(check: PageCheck, requirements: ReadonlyMap<string, TraceabilityRow>, evidence: CheckEvidence | Error): HTMLDivElement {
  return h('div', { class: 'evidence' }, requirementsBlock(check, requirements), detailsBlock(check.details), findingsBlock(check.findings || []), recorded(evidence));
}
