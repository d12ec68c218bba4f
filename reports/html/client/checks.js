// The checks, grouped by spec area, problems first. Each row is a <details>
// whose evidence is built only when it is first opened, so a report of a
// thousand checks is interactive at once.

const AREA_ORDER = ['auth', 'users', 'crypto-transfers', 'trading', 'webhooks', 'errors', 'load'];
const VERDICTS = ['PASS', 'FAIL', 'WARN', 'REVIEW', 'SKIP', 'ERROR', 'WAIVED', 'FLAKY'];
const VERDICT_ORDER = ['ERROR', 'FAIL', 'FLAKY', 'WAIVED', 'WARN', 'REVIEW', 'SKIP', 'PASS'];

function checkKey(check) {
  return `${check.target}/${check.id}`;
}

function checkAnchor(check, multiTarget) {
  return anchorId('check', multiTarget ? `${check.target}--${check.id}` : check.id);
}

function areasOf(checks) {
  const present = [...new Set(checks.map((c) => c.area))];
  return present.sort((a, b) => {
    const ia = AREA_ORDER.indexOf(a);
    const ib = AREA_ORDER.indexOf(b);
    return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib) || a.localeCompare(b);
  });
}

function openEvidence(row) {
  if (row.rendered) return;
  row.rendered = true;
  row.el.appendChild(renderEvidence(row.check, row.requirements));
}

function checkRow(check, multiTarget, diffMark) {
  const el = h(
    'details',
    { class: `check verdict-${check.verdict}`, id: checkAnchor(check, multiTarget) },
    h(
      'summary',
      null,
      h(
        'div',
        { class: 'check-line' },
        badge(check.verdict),
        check.waived ? h('span', { class: `badge gave v-${check.waived.verdict}`, title: 'the verdict the check gave, which a waiver accepts' }, `gave ${check.waived.verdict}`) : null,
        h('span', { class: 'check-id' }, check.id),
        h('span', { class: 'check-title' }, check.title),
        diffMark ? h('span', { class: `diff-mark ${diffMark.kind}` }, diffMark.text) : null,
        h(
          'span',
          { class: 'check-meta' },
          check.requirements.map((id) => h('a', { class: 'req', href: `#${anchorId('req', id)}`, title: 'show in the traceability matrix' }, id)),
          h('span', { class: `sev sev-${check.severity}` }, check.severity),
          multiTarget ? h('span', { class: 'target' }, check.target) : null,
          h('span', { class: 'duration muted' }, fmtMs(check.durationMs)),
        ),
      ),
      check.reason ? h('div', { class: 'check-reason' }, withMarkers(check.reason)) : null,
      check.basis ? basisLine(check.basis) : null,
      check.waived ? waivedLine(check.waived) : null,
      check.attempts && check.attempts.length ? attemptsLine(check.attempts) : null,
    ),
  );
  return el;
}

/**
 * A check of a part that ran more than once (ptas merge): every attempt's
 * verdict, oldest first, and which one the verdict and evidence come from
 * (for FLAKY: the failing one). src/results/attempts.ts states the policy.
 */
function attemptsLine(attempts) {
  return h(
    'div',
    { class: 'check-attempts' },
    h('span', { class: 'attempts-label' }, `${attempts.length} attempt${attempts.length === 1 ? '' : 's'}:`),
    attempts.map((a) =>
      h(
        'span',
        {
          class: `attempt${a.decisive ? ' decisive' : ''}`,
          title: `part ${a.run.index}/${a.run.total}, run started ${a.run.startedAt}, manifest sha256:${a.run.manifestSha256}${a.reason ? `\n${a.reason}` : ''}`,
        },
        `#${a.run.attempt} `,
        badge(a.verdict),
        ` ${fmtTimestamp(a.run.startedAt)}`,
        a.decisive ? ' (evidence below)' : '',
      ),
    ),
  );
}

/** On a WAIVED check: which waiver accepts the verdict it gave, whose, until when, and where the fix is tracked. */
function waivedLine(waived) {
  const w = waived.waiver;
  const safeLink = /^https?:\/\//i.test(w.tracking);
  return h(
    'div',
    { class: 'check-waived' },
    h('span', { class: 'waiver-label' }, `waived (${waived.verdict} expected by ${w.selector.kind} waiver ${w.pointer})`),
    ': ',
    h('span', { class: 'waiver-reason' }, w.reason),
    ` — ${w.owner}, valid through ${w.expires} UTC, `,
    safeLink ? h('a', { href: w.tracking, rel: 'noopener noreferrer', target: '_blank', class: 'tracking' }, w.tracking) : h('code', null, w.tracking),
  );
}

/** Where a basis's words come from: the spec's clause, a standard's section, or the profile's key and value (src/check/basis.ts basisSource). */
function basisSourceText(basis) {
  if (basis.kind === 'standard') return `${basis.standard} section ${basis.clause}${basis.namedBy ? ` (the spec names ${basis.namedBy})` : ''}`;
  if (basis.kind === 'profile-declared') {
    const value = basis.declaredValue === undefined ? '' : ` = ${typeof basis.declaredValue === 'string' ? basis.declaredValue : JSON.stringify(basis.declaredValue)}`;
    return `profile-declared ${basis.profileKey}${value}; spec ${basis.clause}`;
  }
  return `spec ${basis.clause}`;
}

/** The sentence a finding rests on (spec, a standard the spec names, or the profile's declaration), shown beside it. */
function basisLine(basis) {
  return h(
    'div',
    { class: `check-basis basis-${basis.kind}` },
    h('span', { class: 'basis-kind' }, basisSourceText(basis)),
    ': ',
    h('q', { class: 'basis-quote' }, basis.quote),
  );
}

/** Builds the check list; returns the rows the filters work on. */
function renderChecks(container, results, diff) {
  const multiTarget = new Set(results.checks.map((c) => c.target)).size > 1;
  const marks = diffMarks(diff);
  const requirements = new Map(results.requirements.map((r) => [r.id, r]));
  const rows = [];
  const areaSections = [];
  for (const area of areasOf(results.checks)) {
    const checks = results.checks
      .filter((c) => c.area === area)
      .sort((a, b) => VERDICT_ORDER.indexOf(a.verdict) - VERDICT_ORDER.indexOf(b.verdict) || a.id.localeCompare(b.id));
    const counts = VERDICT_ORDER.filter((v) => checks.some((c) => c.verdict === v)).map((v) =>
      h('span', { class: `mini v-${v}` }, `${checks.filter((c) => c.verdict === v).length} ${v}`),
    );
    const count = h('span', { class: 'area-shown muted' });
    const list = h('div', { class: 'check-list' });
    const section = h('section', { class: 'area', id: anchorId('area', area) }, h('h3', null, area, ' ', h('span', { class: 'area-counts' }, counts), count), list);
    const areaRows = [];
    for (const check of checks) {
      const row = { check, requirements, el: checkRow(check, multiTarget, marks.get(checkKey(check))), rendered: false, haystack: undefined };
      row.el.addEventListener('toggle', () => {
        if (row.el.open) openEvidence(row);
      });
      list.appendChild(row.el);
      rows.push(row);
      areaRows.push(row);
    }
    areaSections.push({ area, section, rows: areaRows, count });
    container.appendChild(section);
  }
  if (results.checks.length === 0) container.appendChild(h('p', { class: 'muted' }, 'This run recorded no checks.'));
  return { rows, areaSections, multiTarget };
}

/** The text a search looks through: everything the check recorded, lower-cased once on first use. */
function haystackOf(row) {
  if (row.haystack === undefined) row.haystack = JSON.stringify(row.check).toLowerCase();
  return row.haystack;
}
