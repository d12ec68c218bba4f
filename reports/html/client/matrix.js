// The requirement traceability matrix: every requirement of the catalogue →
// the checks of this run covering it → their verdicts. A requirement no check
// of this run covers is shown as UNCOVERED (it may be covered by checks a
// --grep left out; the run can only speak for what it ran).

// WAIVED: a known failure, worse than a warning, not a FAIL.
// FLAKY: a FAIL that a later attempt passed; still a failure, shown below an outright FAIL.
const RANK = { PASS: 0, SKIP: 1, REVIEW: 2, WARN: 3, WAIVED: 3.5, FLAKY: 3.9, FAIL: 4, ERROR: 5 };

function worst(verdicts) {
  return verdicts.reduce((w, v) => (RANK[v] > RANK[w] ? v : w), 'PASS');
}

function renderMatrix(container, results, multiTarget) {
  const byId = new Map();
  for (const check of results.checks) {
    if (!byId.has(check.id)) byId.set(check.id, []);
    byId.get(check.id).push(check);
  }
  const rows = [];
  const tbody = h('tbody');
  for (const requirement of results.requirements) {
    const checks = requirement.checks.flatMap((id) => byId.get(id) || []);
    const status = checks.length ? worst(checks.map((c) => c.verdict)) : 'UNCOVERED';
    const el = h(
      'tr',
      { id: anchorId('req', requirement.id), class: `req-row st-${status}` },
      h('td', null, h('code', { class: 'req-id' }, requirement.id), h('div', { class: 'muted small' }, requirement.area)),
      h('td', null, h('span', { class: `sev sev-${requirement.level}` }, requirement.level)),
      h('td', { class: 'clause' }, requirement.clause),
      h('td', { class: 'req-text' }, requirement.text),
      h(
        'td',
        { class: 'req-checks' },
        checks.length
          ? checks.map((c) =>
              h(
                'div',
                null,
                badge(c.verdict),
                ' ',
                h('a', { href: `#${checkAnchor(c, multiTarget)}`, class: 'check-link', dataset: { check: checkAnchor(c, multiTarget) } }, c.id),
                multiTarget ? h('span', { class: 'target' }, c.target) : null,
              ),
            )
          : h('span', { class: 'muted' }, 'no check in this run'),
      ),
      h('td', null, badge(status)),
    );
    tbody.appendChild(el);
    rows.push({ requirement, checks, status, el, haystack: `${requirement.id} ${requirement.clause} ${requirement.text} ${requirement.checks.join(' ')}`.toLowerCase() });
  }
  const uncovered = rows.filter((r) => r.status === 'UNCOVERED');
  const uncoveredMust = uncovered.filter((r) => r.requirement.level === 'MUST').length;
  const onlyUncovered = h('input', { type: 'checkbox', id: 'only-uncovered' });
  const shown = h('span', { class: 'muted' });
  container.appendChild(
    h(
      'div',
      { class: 'matrix-head' },
      h(
        'p',
        null,
        `${rows.length} requirements · ${rows.length - uncovered.length} covered by this run · `,
        h('b', { class: uncovered.length ? 'uncovered-count' : '' }, `${uncovered.length} uncovered`),
        uncovered.length ? ` (${uncoveredMust} of them MUST)` : '',
      ),
      h('label', null, onlyUncovered, ' uncovered only'),
      shown,
    ),
  );
  const table = h(
    'table',
    { class: 'matrix' },
    h('colgroup', null, ['c-req', 'c-level', 'c-clause', 'c-text', 'c-checks', 'c-status'].map((c) => h('col', { class: c }))),
    h(
      'thead',
      null,
      h('tr', null, h('th', null, 'Requirement'), h('th', null, 'Level'), h('th', null, 'Clause'), h('th', null, 'Text'), h('th', null, 'Checks → verdicts'), h('th', null, 'Status')),
    ),
    tbody,
  );
  container.appendChild(h('div', { class: 'matrix-wrap' }, table));
  return { rows, onlyUncovered, shown };
}
