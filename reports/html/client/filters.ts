// Filters by verdict, area, requirement (id or prefix) and free text. They
// hide check rows and matrix rows; the text search looks through everything a
// check recorded, evidence included (expanded on the first search).
import type { PageResults } from '../page-data.ts';
import { areasOf, VERDICTS } from './check-order.ts';
import { haystackOf, openEvidence, type CheckList, type CheckRow } from './checks.ts';
import { h } from './dom.ts';
import type { Matrix, MatrixRow } from './matrix.ts';

interface FilterState {
  verdicts: Set<string>;
  area: string;
  /** Upper-cased requirement id or prefix. */
  requirement: string;
  /** Lower-cased search text. */
  text: string;
}

type FilterBar = ReturnType<typeof filterBar>;

export interface Filters {
  resetAll(): void;
}

function filterBar(results: PageResults, checkRows: readonly CheckRow[]) {
  const verdictButtons = VERDICTS.map((v) => h('button', { type: 'button', class: `chip v-${v}`, 'aria-pressed': 'false', dataset: { verdict: v } }, `${v} ${results.counts[v] ?? 0}`));
  const areaSelect = h('select', { id: 'filter-area', 'aria-label': 'area' }, h('option', { value: '' }, 'all areas'), areasOf(results.checks).map((a) => h('option', { value: a }, a)));
  const requirementIds = [...new Set(results.requirements.map((r) => r.id).concat(results.checks.flatMap((c) => c.requirements)))].sort();
  const requirementInput = h('input', { id: 'filter-requirement', type: 'text', list: 'requirement-ids', placeholder: 'requirement id or prefix', 'aria-label': 'requirement', autocomplete: 'off', spellcheck: 'false' });
  const datalist = h('datalist', { id: 'requirement-ids' }, requirementIds.map((id) => h('option', { value: id })));
  const search = h('input', { id: 'filter-text', type: 'search', placeholder: 'search checks and evidence  ( / )', 'aria-label': 'search', autocomplete: 'off', spellcheck: 'false' });
  const expandFailing = h('button', { type: 'button', id: 'expand-failing', title: 'open every FAIL, FLAKY and ERROR check with its evidence (for printing)' }, 'Open failing');
  const collapse = h('button', { type: 'button', id: 'collapse-all' }, 'Close all');
  const reset = h('button', { type: 'button', id: 'filter-reset' }, 'Reset');
  const shown = h('span', { id: 'shown-count', class: 'muted' }, `${checkRows.length} checks`);
  const bar = h(
    'div',
    { class: 'filter-bar', role: 'search' },
    h('div', { class: 'filter-group' }, verdictButtons),
    h('div', { class: 'filter-group' }, areaSelect, requirementInput, datalist, search),
    h('div', { class: 'filter-group' }, expandFailing, collapse, reset, shown),
  );
  return { bar, verdictButtons, areaSelect, requirementInput, search, expandFailing, collapse, reset, shown };
}

function checkMatches(state: FilterState, row: CheckRow): boolean {
  return (
    (state.verdicts.size === 0 || state.verdicts.has(row.check.verdict)) &&
    (!state.area || row.check.area === state.area) &&
    (!state.requirement || row.check.requirements.some((id) => id.startsWith(state.requirement))) &&
    (!state.text || row.check.id.toLowerCase().includes(state.text) || haystackOf(row).includes(state.text))
  );
}

function requirementMatches(state: FilterState, onlyUncovered: boolean, row: MatrixRow): boolean {
  return (
    (!onlyUncovered || row.status === 'UNCOVERED') &&
    (state.verdicts.size === 0 || state.verdicts.has(row.status) || row.checks.some((c) => state.verdicts.has(c.verdict))) &&
    (!state.area || row.requirement.area === state.area) &&
    (!state.requirement || row.requirement.id.startsWith(state.requirement)) &&
    (!state.text || row.haystack.includes(state.text))
  );
}

function filterChecks(state: FilterState, checks: CheckList, ui: FilterBar): void {
  let visible = 0;
  for (const row of checks.rows) {
    const show = checkMatches(state, row);
    row.el.hidden = !show;
    if (show) visible++;
  }
  for (const area of checks.areaSections) {
    const n = area.rows.filter((r) => !r.el.hidden).length;
    area.section.hidden = n === 0;
    area.count.textContent = n === area.rows.length ? '' : ` ${n} of ${area.rows.length} shown`;
  }
  ui.shown.textContent = visible === checks.rows.length ? `${visible} checks` : `${visible} of ${checks.rows.length} checks shown`;
}

function filterMatrix(state: FilterState, matrix: Matrix): void {
  let shown = 0;
  for (const row of matrix.rows) {
    const show = requirementMatches(state, matrix.onlyUncovered.checked, row);
    row.el.hidden = !show;
    if (show) shown++;
  }
  matrix.shown.textContent = shown === matrix.rows.length ? '' : `${shown} of ${matrix.rows.length} requirements shown`;
}

/** Each of the buttons toggles its verdict in the filter (the bar's chips and the banner's counts). */
function listenToVerdictButtons(buttons: readonly HTMLElement[], state: FilterState, apply: () => void): void {
  const toggleVerdict = (event: Event): void => {
    const verdict = (event.currentTarget as HTMLElement).dataset.verdict!;
    if (state.verdicts.has(verdict)) state.verdicts.delete(verdict);
    else state.verdicts.add(verdict);
    apply();
  };
  for (const button of buttons) button.addEventListener('click', toggleVerdict);
}

/** The inputs set the state; the text search waits a moment for the typing to pause, and for the evidence to expand. */
function listenToInputs(ui: FilterBar, state: FilterState, checks: CheckList, apply: () => void): void {
  ui.areaSelect.addEventListener('change', () => {
    state.area = ui.areaSelect.value;
    apply();
  });
  ui.requirementInput.addEventListener('input', () => {
    state.requirement = ui.requirementInput.value.trim().toUpperCase();
    apply();
  });
  let pending: ReturnType<typeof setTimeout> | undefined;
  ui.search.addEventListener('input', () => {
    clearTimeout(pending);
    pending = setTimeout(() => {
      state.text = ui.search.value.trim().toLowerCase();
      if (state.text && !checks.store.settled) void checks.store.load().then(apply);
      else apply();
    }, 120);
  });
}

function listenToOpenAndClose(ui: FilterBar, checks: CheckList): void {
  ui.expandFailing.addEventListener('click', () => {
    for (const row of checks.rows) {
      if (row.check.verdict === 'FAIL' || row.check.verdict === 'FLAKY' || row.check.verdict === 'ERROR') {
        openEvidence(row);
        row.el.open = true;
      }
    }
  });
  ui.collapse.addEventListener('click', () => {
    for (const row of checks.rows) row.el.open = false;
  });
}

/** "/" jumps to the search box, unless the reader is typing somewhere. */
function listenToSlash(search: HTMLInputElement): void {
  document.addEventListener('keydown', (event) => {
    const typing = event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement || event.target instanceof HTMLTextAreaElement;
    if (event.key === '/' && !typing) {
      event.preventDefault();
      search.focus();
    }
  });
}

export function setupFilters(mount: HTMLElement, results: PageResults, checks: CheckList, matrix: Matrix): Filters {
  const ui = filterBar(results, checks.rows);
  mount.appendChild(ui.bar);
  const state: FilterState = { verdicts: new Set(), area: '', requirement: '', text: '' };
  const countButtons = [...document.querySelectorAll<HTMLElement>('#counts [data-verdict]')];
  const verdictButtons = [...ui.verdictButtons, ...countButtons];
  const apply = (): void => {
    filterChecks(state, checks, ui);
    filterMatrix(state, matrix);
    for (const button of verdictButtons) button.setAttribute('aria-pressed', String(state.verdicts.has(button.dataset.verdict!)));
  };
  listenToVerdictButtons(verdictButtons, state, apply);
  listenToInputs(ui, state, checks, apply);
  matrix.onlyUncovered.addEventListener('change', apply);
  const resetAll = (): void => {
    state.verdicts.clear();
    state.area = state.requirement = state.text = '';
    ui.areaSelect.value = ui.requirementInput.value = ui.search.value = '';
    matrix.onlyUncovered.checked = false;
    apply();
  };
  ui.reset.addEventListener('click', resetAll);
  listenToOpenAndClose(ui, checks);
  listenToSlash(ui.search);
  return { resetAll };
}
