// The requirement traceability matrix: every requirement of the catalogue →
// the checks of this run covering it → their verdicts. A requirement no check
// of this run covers is shown as UNCOVERED (it may be covered by checks a
// --grep left out; the run can only speak for what it ran). The checks are
// shown in two lists: the hand-written ones, and the explored rules whose
// generated cases exercised the requirement (with how many cases), or which
// no generated case reached (explore/).
import type { Verdict } from '../../../src/check/model.ts';
import type { TraceabilityRow } from '../../../src/results/model.ts';
import type { PageCheck, PageResults } from '../page-data.ts';
import { checkAnchor } from './check-order.ts';
import { anchorId, badge, h } from './dom.ts';

// WAIVED: a known failure, worse than a warning, not a FAIL.
// FLAKY: a FAIL that a later attempt passed; still a failure, shown below an outright FAIL.
const RANK: Record<Verdict, number> = { PASS: 0, SKIP: 1, REVIEW: 2, WARN: 3, WAIVED: 3.5, FLAKY: 3.9, FAIL: 4, ERROR: 5 };

function worst(verdicts: readonly Verdict[]): Verdict {
  return verdicts.reduce<Verdict>((w, v) => (RANK[v] > RANK[w] ? v : w), 'PASS');
}

export type RequirementStatus = Verdict | 'UNCOVERED';

export interface MatrixRow {
  requirement: TraceabilityRow;
  checks: PageCheck[];
  status: RequirementStatus;
  el: HTMLTableRowElement;
  haystack: string;
}

export interface Matrix {
  rows: MatrixRow[];
  onlyUncovered: HTMLInputElement;
  /** "n of m requirements shown" while a filter hides some. */
  shown: HTMLSpanElement;
}

/** An explored rule's check (explore/rule.ts): its id says so. */
export const isExplored = (check: Pick<PageCheck, 'id'>): boolean => check.id.startsWith('explore.');

/** How many generated cases exercised an explored rule, as its note counts them; undefined when none reached it. */
function casesExercising(check: PageCheck): number | undefined {
  if (check.verdict === 'SKIP') return undefined;
  const counted = check.findings.map((f) => f.details?.judged).find((n): n is number => typeof n === 'number');
  return counted ?? (check.verdict === 'FAIL' || check.verdict === 'WARN' ? 1 : undefined);
}

function checkLink(c: PageCheck, multiTarget: boolean, extra: HTMLElement | null = null): HTMLDivElement {
  return h(
    'div',
    null,
    badge(c.verdict),
    ' ',
    h('a', { href: `#${checkAnchor(c, multiTarget)}`, class: 'check-link', dataset: { check: checkAnchor(c, multiTarget) } }, c.id),
    multiTarget ? h('span', { class: 'target' }, c.target) : null,
    extra,
  );
}

function checkCell(checks: readonly PageCheck[], multiTarget: boolean): HTMLTableCellElement {
  const written = checks.filter((c) => !isExplored(c)).map((c) => checkLink(c, multiTarget));
  const explored = checks.filter(isExplored).map((c) => {
    const cases = casesExercising(c);
    const note = cases === undefined ? 'no generated case reached it' : `${cases} generated case${cases === 1 ? '' : 's'}`;
    return checkLink(c, multiTarget, h('span', { class: `muted small explored${cases === undefined ? ' unreached' : ''}` }, ` · ${note}`));
  });
  if (!checks.length) return h('td', { class: 'req-checks' }, h('span', { class: 'muted' }, 'no check in this run'));
  return h('td', { class: 'req-checks' }, written, explored.length ? h('div', { class: 'generated' }, h('div', { class: 'muted small' }, 'generated cases:'), explored) : null);
}

function matrixRow(requirement: TraceabilityRow, checks: PageCheck[], multiTarget: boolean): MatrixRow {
  const status: RequirementStatus = checks.length ? worst(checks.map((c) => c.verdict)) : 'UNCOVERED';
  const el = h(
    'tr',
    { id: anchorId('req', requirement.id), class: `req-row st-${status}` },
    h('td', null, h('code', { class: 'req-id' }, requirement.id), h('div', { class: 'muted small' }, requirement.area)),
    h('td', null, h('span', { class: `sev sev-${requirement.level}` }, requirement.level)),
    h('td', { class: 'clause' }, requirement.clause),
    h('td', { class: 'req-text' }, requirement.text),
    checkCell(checks, multiTarget),
    h('td', null, badge(status)),
  );
  const haystack = `${requirement.id} ${requirement.clause} ${requirement.text} ${requirement.checks.join(' ')}`.toLowerCase();
  return { requirement, checks, status, el, haystack };
}

/** How many requirements this run covers, and the "uncovered only" switch. */
function matrixHead(rows: readonly MatrixRow[], onlyUncovered: HTMLInputElement, shown: HTMLSpanElement): HTMLDivElement {
  const uncovered = rows.filter((r) => r.status === 'UNCOVERED');
  const uncoveredMust = uncovered.filter((r) => r.requirement.level === 'MUST').length;
  const explored = rows.flatMap((r) => r.checks.filter(isExplored));
  const unreached = explored.filter((c) => casesExercising(c) === undefined).length;
  const exercised = rows.filter((r) => r.checks.some((c) => isExplored(c) && casesExercising(c) !== undefined)).length;
  return h(
    'div',
    { class: 'matrix-head' },
    h(
      'p',
      null,
      `${rows.length} requirements · ${rows.length - uncovered.length} covered by this run · `,
      h('b', { class: uncovered.length ? 'uncovered-count' : '' }, `${uncovered.length} uncovered`),
      uncovered.length ? ` (${uncoveredMust} of them MUST)` : '',
      explored.length ? h('span', { class: 'explored-count' }, ` · ${exercised} exercised by generated cases, ${unreached} explored rule${unreached === 1 ? '' : 's'} no case reached`) : '',
    ),
    h('label', null, onlyUncovered, ' uncovered only'),
    shown,
  );
}

function matrixTable(tbody: HTMLTableSectionElement): HTMLTableElement {
  const head = h('tr', null, h('th', null, 'Requirement'), h('th', null, 'Level'), h('th', null, 'Clause'), h('th', null, 'Text'), h('th', null, 'Checks → verdicts'), h('th', null, 'Status'));
  const columns = ['c-req', 'c-level', 'c-clause', 'c-text', 'c-checks', 'c-status'].map((c) => h('col', { class: c }));
  return h('table', { class: 'matrix' }, h('colgroup', null, columns), h('thead', null, head), tbody);
}

export function renderMatrix(container: HTMLElement, results: PageResults, multiTarget: boolean): Matrix {
  const byId = new Map<string, PageCheck[]>();
  for (const check of results.checks) {
    if (!byId.has(check.id)) byId.set(check.id, []);
    byId.get(check.id)!.push(check);
  }
  const rows = results.requirements.map((requirement) => matrixRow(requirement, requirement.checks.flatMap((id) => byId.get(id) || []), multiTarget));
  const tbody = h('tbody', null, rows.map((r) => r.el));
  const onlyUncovered = h('input', { type: 'checkbox', id: 'only-uncovered' });
  const shown = h('span', { class: 'muted' });
  container.appendChild(matrixHead(rows, onlyUncovered, shown));
  container.appendChild(h('div', { class: 'matrix-wrap' }, matrixTable(tbody)));
  return { rows, onlyUncovered, shown };
}
