// The evidence of one check, rendered when its row is first opened: what an
// implementer needs to reproduce and fix a failure without asking anyone.

function headerTable(headers) {
  const entries = Object.entries(headers || {});
  if (entries.length === 0) return h('p', { class: 'muted' }, 'no headers');
  return h(
    'table',
    { class: 'headers' },
    h('tbody', null, entries.map(([name, value]) => h('tr', null, h('th', null, name), h('td', null, withMarkers(String(value)))))),
  );
}

function bodyBlock(body, bodyBytes, note) {
  if (body === undefined || body === '') {
    return h('p', { class: 'muted' }, bodyBytes ? `${fmtInt(bodyBytes)} bytes, not kept` : 'no body');
  }
  return [
    h('div', { class: 'body-meta muted' }, `${fmtInt(bodyBytes)} bytes`, note ? ` · ${note}` : ''),
    h('pre', { class: 'body' }, withMarkers(prettyBody(body))),
  ];
}

function copyButton(textFor) {
  return h(
    'button',
    {
      type: 'button',
      class: 'copy',
      onclick: (event) => {
        const button = event.currentTarget;
        const text = textFor();
        const done = (ok) => {
          button.textContent = ok ? 'Copied' : 'Select and copy';
          setTimeout(() => (button.textContent = 'Copy'), 1500);
        };
        const fallback = () => {
          const area = h('textarea', { class: 'offscreen', readonly: true });
          area.value = text;
          document.body.appendChild(area);
          area.select();
          let ok = false;
          try {
            ok = document.execCommand('copy');
          } catch {
            ok = false;
          }
          area.remove();
          done(ok);
        };
        if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(() => done(true), fallback);
        else fallback();
      },
    },
    'Copy',
  );
}

function schemaErrorsBlock(errors) {
  return h(
    'div',
    { class: 'schema-errors' },
    h('h5', null, `Schema errors (${errors.length})`),
    h(
      'table',
      null,
      h('thead', null, h('tr', null, h('th', null, 'instance path'), h('th', null, 'message'), h('th', null, 'keyword'), h('th', null, 'params'))),
      h(
        'tbody',
        null,
        errors.map((e) =>
          h(
            'tr',
            null,
            h('td', null, h('code', null, e.instancePath || '(root)')),
            h('td', null, e.message),
            h('td', null, h('code', null, e.keyword)),
            h('td', null, h('code', null, JSON.stringify(e.params))),
          ),
        ),
      ),
    ),
  );
}

function statusClass(status) {
  if (status >= 500) return 's5xx';
  if (status === 429) return 's429';
  if (status >= 400) return 's4xx';
  if (status >= 300) return 's3xx';
  return 's2xx';
}

function exchangeBlock(exchange) {
  const res = exchange.response;
  const outcome = res
    ? h('span', { class: `status ${statusClass(res.status)}` }, String(res.status))
    : h('span', { class: 'status s5xx' }, exchange.error ? exchange.error.code : 'no response');
  const hasProblem = (exchange.schemaErrors && exchange.schemaErrors.length > 0) || exchange.error;
  return h(
    'section',
    { class: `exchange${hasProblem ? ' problem' : ''}` },
    h(
      'header',
      null,
      h('span', { class: 'xid' }, `#${exchange.id}`),
      h('span', { class: 'label' }, exchange.label || 'exchange'),
      h('span', { class: 'timing muted' }, `${fmtTimestamp(exchange.startedAt)} · ${fmtMs(exchange.durationMs)}`),
    ),
    h('div', { class: 'request-line' }, h('b', null, exchange.request.method), ' ', h('span', { class: 'url' }, withMarkers(exchange.request.url)), ' → ', outcome),
    h(
      'div',
      { class: 'sides' },
      h('div', { class: 'side' }, h('h5', null, 'Request'), headerTable(exchange.request.headers), bodyBlock(exchange.request.body, exchange.request.bodyBytes)),
      h(
        'div',
        { class: 'side' },
        h('h5', null, res ? `Response ${res.status}` : 'Response'),
        res
          ? [headerTable(res.headers), bodyBlock(res.body, res.bodyBytes, res.truncated ? 'cut off at the response size cap' : '')]
          : h('p', { class: 'muted' }, 'no response'),
        exchange.error ? h('p', { class: 'transport-error' }, `transport error ${exchange.error.code}: `, exchange.error.message) : null,
      ),
    ),
    exchange.schemaErrors && exchange.schemaErrors.length ? schemaErrorsBlock(exchange.schemaErrors) : null,
    h('div', { class: 'curl' }, h('div', { class: 'curl-head' }, h('h5', null, 'Reproduce'), copyButton(() => exchange.curl)), h('pre', null, exchange.curl)),
  );
}

function detailsBlock(details) {
  const entries = Object.entries(details || {});
  if (entries.length === 0) return null;
  return h(
    'div',
    { class: 'details' },
    h('h5', null, 'Expected and observed'),
    h(
      'table',
      { class: 'kv' },
      h(
        'tbody',
        null,
        entries.map(([key, value]) =>
          h(
            'tr',
            null,
            h('th', null, key),
            h('td', null, value !== null && typeof value === 'object' ? h('pre', null, withMarkers(JSON.stringify(value, null, 2))) : h('code', null, withMarkers(String(value)))),
          ),
        ),
      ),
    ),
  );
}

function findingsBlock(findings) {
  if (!findings.length) return null;
  return h(
    'div',
    { class: 'findings' },
    h('h5', null, `Findings (${findings.length})`),
    h(
      'ul',
      null,
      findings.map((f) =>
        h(
          'li',
          null,
          badge(f.level),
          ' ',
          withMarkers(f.message),
          f.basis ? basisLine(f.basis) : null,
          f.details ? h('pre', { class: 'finding-details' }, withMarkers(JSON.stringify(f.details, null, 2))) : null,
        ),
      ),
    ),
  );
}

function timelineBlock(timeline) {
  if (!timeline.length) return null;
  return h(
    'div',
    { class: 'timeline' },
    h('h5', null, 'Timeline'),
    h(
      'table',
      null,
      h('thead', null, h('tr', null, h('th', null, 't'), h('th', null, 'event'), h('th', null, 'detail'))),
      h(
        'tbody',
        null,
        timeline.map((t) => h('tr', null, h('td', { class: 'num' }, `+${fmtMs(t.atMs)}`), h('td', null, t.event), h('td', null, withMarkers(t.detail || '')))),
      ),
    ),
  );
}

/** What the spec demands, so the reader needs no other document to judge the failure. */
function requirementsBlock(check, requirements) {
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

function renderEvidence(check, requirements) {
  return h(
    'div',
    { class: 'evidence' },
    requirementsBlock(check, requirements),
    detailsBlock(check.details),
    findingsBlock(check.findings || []),
    timelineBlock(check.timeline || []),
    check.evidence.length
      ? [h('h5', null, `HTTP exchanges (${check.evidence.length}), secrets redacted`), exchangeList(check.evidence)]
      : h('p', { class: 'muted' }, 'No HTTP exchange was recorded for this check.'),
  );
}

/** Exchanges in pages, so a check that recorded hundreds of them still opens at once. */
const EXCHANGE_PAGE = 50;

function exchangeList(exchanges) {
  const list = h('div', { class: 'exchanges' });
  let shown = 0;
  const more = h('button', { type: 'button', class: 'more' });
  const showMore = () => {
    const next = exchanges.slice(shown, shown + EXCHANGE_PAGE);
    for (const exchange of next) list.insertBefore(exchangeBlock(exchange), more);
    shown += next.length;
    more.hidden = shown >= exchanges.length;
    more.textContent = `Show ${Math.min(EXCHANGE_PAGE, exchanges.length - shown)} more of ${exchanges.length - shown} exchanges`;
  };
  more.addEventListener('click', showMore);
  list.appendChild(more);
  showMore();
  return list;
}
