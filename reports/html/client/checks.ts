// The checks, grouped by spec area, problems first. Each row is a <details>
// whose evidence is expanded and built only when it is first opened, so a
// report of a thousand checks is interactive at once.
import type { Verdict } from '../../../src/check/model.ts';
import type { TraceabilityRow } from '../../../src/results/model.ts';
import type { BaselineDiff } from '../../baseline.ts';
import type { PageCheck, PageResults } from '../page-data.ts';
import { areasOf, checkKey, VERDICT_ORDER } from './check-order.ts';
import { checkRow } from './check-row.ts';
import { diffMarks, type DiffMark } from './diff.ts';
import { anchorId, h } from './dom.ts';
import { renderEvidence } from './evidence.ts';
import type { EvidenceStore } from './evidence-store.ts';

export interface CheckRow {
  check: PageCheck;
  /** The check's place in results.checks: where the store keeps its evidence. */
  index: number;
  requirements: ReadonlyMap<string, TraceabilityRow>;
  store: EvidenceStore;
  el: HTMLDetailsElement;
  /** Its evidence was asked for (it shows once expanded). */
  rendered: boolean;
  haystack: string | undefined;
}

export interface AreaSection {
  area: string;
  section: HTMLElement;
  rows: CheckRow[];
  /** "n of m shown" while a filter hides some. */
  count: HTMLSpanElement;
}

export interface CheckList {
  rows: CheckRow[];
  areaSections: AreaSection[];
  multiTarget: boolean;
  store: EvidenceStore;
}

function showEvidence(row: CheckRow, placeholder: HTMLElement): void {
  const evidence = row.store.failure ?? row.store.evidenceOf(row.index) ?? { evidence: [], timeline: [] };
  const block = renderEvidence(row.check, row.requirements, evidence);
  if (placeholder.isConnected) placeholder.replaceWith(block);
  else row.el.appendChild(block);
}

/** Builds the row's evidence: at once when the store is expanded, else when it is. */
export function openEvidence(row: CheckRow): void {
  if (row.rendered) return;
  row.rendered = true;
  const placeholder = h('p', { class: 'evidence-pending muted' }, 'Expanding the evidence…');
  if (row.store.settled) {
    showEvidence(row, placeholder);
    return;
  }
  row.el.appendChild(placeholder);
  void row.store.load().then(() => showEvidence(row, placeholder));
}

/** The text a search looks through: everything the check recorded, lower-cased once on first use after the evidence is expanded. */
export function haystackOf(row: CheckRow): string {
  if (row.haystack !== undefined) return row.haystack;
  const text = `${JSON.stringify(row.check)}\n${row.store.lineOf(row.index) ?? ''}`.toLowerCase();
  if (row.store.settled) row.haystack = text;
  return text;
}

function byVerdictThenId(a: PageCheck, b: PageCheck): number {
  return VERDICT_ORDER.indexOf(a.verdict) - VERDICT_ORDER.indexOf(b.verdict) || a.id.localeCompare(b.id);
}

function verdictCounts(checks: readonly PageCheck[]): HTMLSpanElement[] {
  const present: Verdict[] = VERDICT_ORDER.filter((v) => checks.some((c) => c.verdict === v));
  return present.map((v) => h('span', { class: `mini v-${v}` }, `${checks.filter((c) => c.verdict === v).length} ${v}`));
}

interface ListContext {
  multiTarget: boolean;
  marks: Map<string, DiffMark>;
  requirements: ReadonlyMap<string, TraceabilityRow>;
  store: EvidenceStore;
  indexOf: Map<PageCheck, number>;
}

function makeRow(check: PageCheck, context: ListContext): CheckRow {
  const el = checkRow(check, context.multiTarget, context.marks.get(checkKey(check)));
  const row: CheckRow = { check, index: context.indexOf.get(check)!, requirements: context.requirements, store: context.store, el, rendered: false, haystack: undefined };
  el.addEventListener('toggle', () => {
    if (el.open) openEvidence(row);
  });
  return row;
}

function areaSection(area: string, checks: readonly PageCheck[], context: ListContext): AreaSection {
  const count = h('span', { class: 'area-shown muted' });
  const list = h('div', { class: 'check-list' });
  const section = h('section', { class: 'area', id: anchorId('area', area) }, h('h3', null, area, ' ', h('span', { class: 'area-counts' }, verdictCounts(checks)), count), list);
  const rows = checks.map((check) => makeRow(check, context));
  for (const row of rows) list.appendChild(row.el);
  return { area, section, rows, count };
}

/** Builds the check list; returns the rows the filters work on. */
export function renderChecks(container: HTMLElement, results: PageResults, diff: BaselineDiff | undefined, store: EvidenceStore): CheckList {
  const context: ListContext = {
    multiTarget: new Set(results.checks.map((c) => c.target)).size > 1,
    marks: diffMarks(diff),
    requirements: new Map(results.requirements.map((r) => [r.id, r])),
    store,
    indexOf: new Map(results.checks.map((c, i) => [c, i])),
  };
  const areaSections = areasOf(results.checks).map((area) => areaSection(area, results.checks.filter((c) => c.area === area).sort(byVerdictThenId), context));
  for (const { section } of areaSections) container.appendChild(section);
  if (results.checks.length === 0) container.appendChild(h('p', { class: 'muted' }, 'This run recorded no checks.'));
  return { rows: areaSections.flatMap((a) => a.rows), areaSections, multiTarget: context.multiTarget, store };
}
