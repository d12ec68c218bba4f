// Filters by verdict, area, requirement (id or prefix) and free text. They
// hide check rows and matrix rows; the text search looks through everything a
// check recorded, evidence included.

function filterBar(results, checkRows) {
  const verdictButtons = VERDICTS.map((v) =>
    h('button', { type: 'button', class: `chip v-${v}`, 'aria-pressed': 'false', dataset: { verdict: v } }, `${v} ${results.counts[v] ?? 0}`),
  );
  const areas = areasOf(results.checks);
  const areaSelect = h('select', { id: 'filter-area', 'aria-label': 'area' }, h('option', { value: '' }, 'all areas'), areas.map((a) => h('option', { value: a }, a)));
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

function setupFilters(mount, results, checks, matrix) {
  const ui = filterBar(results, checks.rows);
  mount.appendChild(ui.bar);
  const state = { verdicts: new Set(), area: '', requirement: '', text: '' };
  const countButtons = [...document.querySelectorAll('#counts [data-verdict]')];

  const matches = (row) =>
    (state.verdicts.size === 0 || state.verdicts.has(row.check.verdict)) &&
    (!state.area || row.check.area === state.area) &&
    (!state.requirement || row.check.requirements.some((id) => id.startsWith(state.requirement))) &&
    (!state.text || row.check.id.toLowerCase().includes(state.text) || haystackOf(row).includes(state.text));

  const matrixMatches = (row) =>
    (!matrix.onlyUncovered.checked || row.status === 'UNCOVERED') &&
    (state.verdicts.size === 0 || state.verdicts.has(row.status) || row.checks.some((c) => state.verdicts.has(c.verdict))) &&
    (!state.area || row.requirement.area === state.area) &&
    (!state.requirement || row.requirement.id.startsWith(state.requirement)) &&
    (!state.text || row.haystack.includes(state.text));

  function apply() {
    let visible = 0;
    for (const row of checks.rows) {
      const show = matches(row);
      row.el.hidden = !show;
      if (show) visible++;
    }
    for (const area of checks.areaSections) {
      const n = area.rows.filter((r) => !r.el.hidden).length;
      area.section.hidden = n === 0;
      area.count.textContent = n === area.rows.length ? '' : ` ${n} of ${area.rows.length} shown`;
    }
    ui.shown.textContent = visible === checks.rows.length ? `${visible} checks` : `${visible} of ${checks.rows.length} checks shown`;
    let requirementsShown = 0;
    for (const row of matrix.rows) {
      const show = matrixMatches(row);
      row.el.hidden = !show;
      if (show) requirementsShown++;
    }
    matrix.shown.textContent = requirementsShown === matrix.rows.length ? '' : `${requirementsShown} of ${matrix.rows.length} requirements shown`;
    for (const button of [...ui.verdictButtons, ...countButtons]) button.setAttribute('aria-pressed', String(state.verdicts.has(button.dataset.verdict)));
  }

  const toggleVerdict = (event) => {
    const verdict = event.currentTarget.dataset.verdict;
    if (state.verdicts.has(verdict)) state.verdicts.delete(verdict);
    else state.verdicts.add(verdict);
    apply();
  };
  for (const button of [...ui.verdictButtons, ...countButtons]) button.addEventListener('click', toggleVerdict);
  ui.areaSelect.addEventListener('change', () => {
    state.area = ui.areaSelect.value;
    apply();
  });
  ui.requirementInput.addEventListener('input', () => {
    state.requirement = ui.requirementInput.value.trim().toUpperCase();
    apply();
  });
  let pending;
  ui.search.addEventListener('input', () => {
    clearTimeout(pending);
    pending = setTimeout(() => {
      state.text = ui.search.value.trim().toLowerCase();
      apply();
    }, 120);
  });
  matrix.onlyUncovered.addEventListener('change', apply);
  const resetAll = () => {
    state.verdicts.clear();
    state.area = state.requirement = state.text = '';
    ui.areaSelect.value = ui.requirementInput.value = ui.search.value = '';
    matrix.onlyUncovered.checked = false;
    apply();
  };
  ui.reset.addEventListener('click', resetAll);
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
  document.addEventListener('keydown', (event) => {
    const typing = event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement || event.target instanceof HTMLTextAreaElement;
    if (event.key === '/' && !typing) {
      event.preventDefault();
      ui.search.focus();
    }
  });
  return { resetAll };
}

/** Follows #check-… and #req-… links: shows the target even when a filter hid it, and opens a check. */
function setupNavigation(checks, filters) {
  const byAnchor = new Map(checks.rows.map((row) => [row.el.id, row]));
  function follow() {
    const id = decodeURIComponent(location.hash.slice(1));
    if (!id) return;
    const el = document.getElementById(id);
    if (!el) return;
    if (el.hidden || (el.closest('section.area') || {}).hidden) filters.resetAll();
    const row = byAnchor.get(id);
    if (row) {
      openEvidence(row);
      row.el.open = true;
    }
    el.classList.remove('flash');
    void el.offsetWidth;
    el.classList.add('flash');
    el.scrollIntoView({ block: 'start' });
  }
  window.addEventListener('hashchange', follow);
  follow();
}
