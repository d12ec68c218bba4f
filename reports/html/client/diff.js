// The comparison with a baseline run (`ptas report --baseline`): computed
// when the report was written (reports/baseline.ts), drawn here.

function wasText(change) {
  return change.before ? `was ${change.before}` : 'new check';
}

/** Marks for the check rows: key target/id → { kind, text }. */
function diffMarks(diff) {
  const marks = new Map();
  if (!diff) return marks;
  for (const c of diff.newlyFailing) marks.set(`${c.target}/${c.id}`, { kind: 'newly-failing', text: `newly failing (${wasText(c)})` });
  for (const c of diff.newlyPassing) marks.set(`${c.target}/${c.id}`, { kind: 'newly-passing', text: `newly passing (${wasText(c)})` });
  for (const c of diff.otherChanges) if (c.after) marks.set(`${c.target}/${c.id}`, { kind: 'changed', text: wasText(c) });
  return marks;
}

function runVerdictBadge(verdict) {
  return h('span', { class: `badge rv-${verdict.replace(/ /g, '-')}` }, verdict);
}

function changeTable(changes, multiTarget) {
  return h(
    'table',
    { class: 'diff-table changes' },
    h('thead', null, h('tr', null, h('th', null, 'check'), h('th', null, 'requirements'), h('th', null, 'before'), h('th', null, 'now'), h('th', null, 'reason now'))),
    h(
      'tbody',
      null,
      changes.map((c) =>
        h(
          'tr',
          null,
          h('td', null, c.after ? h('a', { href: `#${checkAnchor(c, multiTarget)}`, class: 'check-link', dataset: { check: checkAnchor(c, multiTarget) } }, c.id) : h('code', null, c.id), multiTarget ? h('span', { class: 'target' }, c.target) : null),
          h('td', null, c.requirements.join(', ')),
          h('td', null, c.before ? badge(c.before) : h('span', { class: 'muted' }, 'not run')),
          h('td', null, c.after ? badge(c.after) : h('span', { class: 'muted' }, 'not run')),
          h('td', null, c.reason ? withMarkers(c.reason) : ''),
        ),
      ),
    ),
  );
}

function figureValue(value, unit) {
  if (value === undefined || value === null) return '—';
  if (unit === 'share') return fmtPct(value);
  if (unit === 'bytes') return `${fmtInt(value)} B`;
  if (unit === 'ms') return fmtMs(value);
  return `${fmtNum(value)} ${unit}`;
}

function loadTable(changes) {
  return h(
    'table',
    { class: 'diff-table' },
    h('thead', null, h('tr', null, h('th', null, 'load figure'), h('th', null, 'before'), h('th', null, 'now'), h('th', null, 'change'))),
    h(
      'tbody',
      null,
      changes.map((c) =>
        h(
          'tr',
          { class: `load-${c.change}` },
          h('td', null, h('b', null, c.subject), ' ', c.figure),
          h('td', { class: 'num' }, figureValue(c.before, c.unit)),
          h('td', { class: 'num' }, figureValue(c.after, c.unit)),
          h('td', null, h('span', { class: `trend t-${c.change}` }, c.change), c.relative !== undefined ? ` ${c.relative > 0 ? '+' : ''}${(c.relative * 100).toFixed(1)} %` : ''),
        ),
      ),
    ),
  );
}

function renderDiff(container, diff, multiTarget) {
  const b = diff.baseline;
  container.appendChild(
    h(
      'p',
      null,
      'Compared with the run of ',
      h('b', null, fmtTimestamp(b.startedAt)),
      ` against ${b.target} (suite ${b.suiteVersion}): verdict `,
      runVerdictBadge(diff.verdict.before),
      ' → ',
      runVerdictBadge(diff.verdict.after),
      '. ',
      h('b', { class: diff.regressions ? 'regressions' : '' }, `${diff.regressions} regression${diff.regressions === 1 ? '' : 's'}`),
      '.',
    ),
  );
  for (const note of diff.notes) container.appendChild(h('p', { class: 'notice notice-info' }, note));
  const part = (title, changes, cls) =>
    h('div', { class: `diff-part ${cls}` }, h('h3', null, `${title} (${changes.length})`), changes.length ? changeTable(changes, multiTarget) : h('p', { class: 'muted' }, 'none'));
  container.appendChild(part('Newly failing', diff.newlyFailing, 'newly-failing'));
  container.appendChild(part('Newly passing', diff.newlyPassing, 'newly-passing'));
  if (diff.otherChanges.length) container.appendChild(part('Other verdict changes', diff.otherChanges, 'changed'));
  container.appendChild(
    h('div', { class: 'diff-part' }, h('h3', null, `Changed load figures (${diff.load.length})`), diff.load.length ? loadTable(diff.load) : h('p', { class: 'muted' }, 'none beyond their tolerance')),
  );
}
