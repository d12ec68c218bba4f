// One recorded HTTP exchange as the evidence shows it: request and response
// side by side with headers and bodies, schema errors, and the curl line to
// reproduce it, with a copy button.
import type { RecordedExchange } from '../../../src/http/exchange.ts';
import type { SchemaError } from '../../../src/schemas/registry.ts';
import { formatInt, formatMs, formatTimestamp, prettyBody } from '../../format.ts';
import { h, withMarkers, type Child } from './dom.ts';

function headerTable(headers: Record<string, string> | undefined): HTMLElement {
  const entries = Object.entries(headers || {});
  if (entries.length === 0) return h('p', { class: 'muted' }, 'no headers');
  return h(
    'table',
    { class: 'headers' },
    h('tbody', null, entries.map(([name, value]) => h('tr', null, h('th', null, name), h('td', null, withMarkers(String(value)))))),
  );
}

function bodyBlock(body: string | undefined, bodyBytes: number, note?: string): Child {
  if (body === undefined || body === '') {
    return h('p', { class: 'muted' }, bodyBytes ? `${formatInt(bodyBytes)} bytes, not kept` : 'no body');
  }
  return [
    h('div', { class: 'body-meta muted' }, `${formatInt(bodyBytes)} bytes`, note ? ` · ${note}` : ''),
    h('pre', { class: 'body' }, withMarkers(prettyBody(body))),
  ];
}

/** Copies through a selected off-screen text area, where the clipboard API is not allowed (file:// is no secure context everywhere). */
function copyWithSelection(text: string): boolean {
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
  return ok;
}

function copyButton(textFor: () => string): HTMLButtonElement {
  const copy = (event: Event): void => {
    const button = event.currentTarget as HTMLButtonElement;
    const text = textFor();
    const done = (ok: boolean): void => {
      button.textContent = ok ? 'Copied' : 'Select and copy';
      setTimeout(() => (button.textContent = 'Copy'), 1500);
    };
    const fallback = (): void => done(copyWithSelection(text));
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(() => done(true), fallback);
    else fallback();
  };
  return h('button', { type: 'button', class: 'copy', onclick: copy }, 'Copy');
}

function schemaErrorsBlock(errors: readonly SchemaError[]): HTMLDivElement {
  const head = h('tr', null, h('th', null, 'instance path'), h('th', null, 'message'), h('th', null, 'keyword'), h('th', null, 'params'));
  const rows = errors.map((e) =>
    h(
      'tr',
      null,
      h('td', null, h('code', null, e.instancePath || '(root)')),
      h('td', null, e.message),
      h('td', null, h('code', null, e.keyword)),
      h('td', null, h('code', null, JSON.stringify(e.params))),
    ),
  );
  return h('div', { class: 'schema-errors' }, h('h5', null, `Schema errors (${errors.length})`), h('table', null, h('thead', null, head), h('tbody', null, rows)));
}

function statusClass(status: number): string {
  if (status >= 500) return 's5xx';
  if (status === 429) return 's429';
  if (status >= 400) return 's4xx';
  if (status >= 300) return 's3xx';
  return 's2xx';
}

function exchangeHeader(exchange: RecordedExchange): HTMLElement {
  return h(
    'header',
    null,
    h('span', { class: 'xid' }, `#${exchange.id}`),
    h('span', { class: 'label' }, exchange.label || 'exchange'),
    h('span', { class: 'timing muted' }, `${formatTimestamp(exchange.startedAt)} · ${formatMs(exchange.durationMs)}`),
  );
}

function requestLine(exchange: RecordedExchange): HTMLDivElement {
  const res = exchange.response;
  const outcome = res
    ? h('span', { class: `status ${statusClass(res.status)}` }, String(res.status))
    : h('span', { class: 'status s5xx' }, exchange.error ? exchange.error.code : 'no response');
  return h('div', { class: 'request-line' }, h('b', null, exchange.request.method), ' ', h('span', { class: 'url' }, withMarkers(exchange.request.url)), ' → ', outcome);
}

/** Request and response side by side. */
function sides(exchange: RecordedExchange): HTMLDivElement {
  const { request, response: res, error } = exchange;
  return h(
    'div',
    { class: 'sides' },
    h('div', { class: 'side' }, h('h5', null, 'Request'), headerTable(request.headers), bodyBlock(request.body, request.bodyBytes)),
    h(
      'div',
      { class: 'side' },
      h('h5', null, res ? `Response ${res.status}` : 'Response'),
      res ? [headerTable(res.headers), bodyBlock(res.body, res.bodyBytes, res.truncated ? 'cut off at the response size cap' : '')] : h('p', { class: 'muted' }, 'no response'),
      error ? h('p', { class: 'transport-error' }, `transport error ${error.code}: `, error.message) : null,
    ),
  );
}

function exchangeBlock(exchange: RecordedExchange): HTMLElement {
  const hasProblem = (exchange.schemaErrors && exchange.schemaErrors.length > 0) || exchange.error;
  return h(
    'section',
    { class: `exchange${hasProblem ? ' problem' : ''}` },
    exchangeHeader(exchange),
    requestLine(exchange),
    sides(exchange),
    exchange.schemaErrors && exchange.schemaErrors.length ? schemaErrorsBlock(exchange.schemaErrors) : null,
    h('div', { class: 'curl' }, h('div', { class: 'curl-head' }, h('h5', null, 'Reproduce'), copyButton(() => exchange.curl)), h('pre', null, exchange.curl)),
  );
}

/** Exchanges in pages, so a check that recorded hundreds of them still opens at once. */
const EXCHANGE_PAGE = 50;

export function exchangeList(exchanges: readonly RecordedExchange[]): HTMLDivElement {
  const list = h('div', { class: 'exchanges' });
  let shown = 0;
  const more = h('button', { type: 'button', class: 'more' });
  const showMore = (): void => {
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
