// DOM and formatting helpers of the report page. Every string that came from
// a run (and so possibly from a hostile server) reaches the page through
// textContent or setAttribute here and is never parsed as markup.

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Appends children: strings become text nodes; null/undefined/false are left out. */
function append(parent, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else if (typeof child === 'string' || typeof child === 'number') parent.appendChild(document.createTextNode(String(child)));
    else parent.appendChild(child);
  }
  return parent;
}

function setAttributes(el, attrs) {
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === 'class') el.setAttribute('class', String(value));
    else if (name === 'dataset') Object.assign(el.dataset, value);
    else if (name.startsWith('on')) el.addEventListener(name.slice(2), value);
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  return el;
}

/** h('div', { class: 'x' }, 'text', child…) */
function h(tag, attrs, ...children) {
  return append(setAttributes(document.createElement(tag), attrs), children);
}

function s(tag, attrs, ...children) {
  return append(setAttributes(document.createElementNS(SVG_NS, tag), attrs), children);
}

function badge(verdict) {
  return h('span', { class: `badge v-${verdict}` }, verdict);
}

const numberFormat = new Intl.NumberFormat('en-US');

function fmtInt(n) {
  return n === undefined || n === null ? '—' : numberFormat.format(Math.round(n));
}

function fmtNum(n, digits = 1) {
  if (n === undefined || n === null || Number.isNaN(n)) return '—';
  return Number.isInteger(n) ? numberFormat.format(n) : n.toFixed(digits);
}

function fmtMs(ms) {
  if (ms === undefined || ms === null) return '—';
  return ms < 9.95 ? `${ms.toFixed(1)} ms` : `${numberFormat.format(Math.round(ms))} ms`;
}

function fmtPct(share) {
  if (share === undefined || share === null) return '—';
  const pct = share * 100;
  return `${pct < 10 && pct > 0 ? pct.toFixed(1) : Math.round(pct)} %`;
}

function fmtBytes(bytes) {
  if (bytes === undefined || bytes === null) return '—';
  if (bytes < 1024) return `${numberFormat.format(bytes)} B`;
  const unit = bytes < 1024 * 1024 ? ['KiB', 1024] : ['MiB', 1024 * 1024];
  return `${numberFormat.format(bytes)} B (${(bytes / unit[1]).toFixed(bytes % unit[1] === 0 ? 0 : 2)} ${unit[0]})`;
}

function fmtDuration(ms) {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const total = Math.round(ms / 100) / 10;
  if (total < 60) return `${total.toFixed(1)} s`;
  const h_ = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const sec = Math.round(total % 60);
  return h_ ? `${h_} h ${m} min ${sec} s` : `${m} min ${sec} s`;
}

/** ISO timestamp shown in UTC: a report is read in other time zones than it was written in. */
function fmtTimestamp(iso) {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return String(iso);
  return `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** A body as the implementer wants to read it: pretty JSON when it parses, as received otherwise. */
function prettyBody(text) {
  const trimmed = text.trim();
  if (!(trimmed.startsWith('{') || trimmed.startsWith('['))) return text;
  try {
    return JSON.stringify(JSON.parse(trimmed), null, 2);
  } catch {
    return text;
  }
}

const SECRET_MARKER = /«[^«»\n]{1,80}»/g;

/** Text with the redaction markers («access_token#3032ff50») marked, so a reader sees where a secret was. */
function withMarkers(text) {
  const parts = [];
  let last = 0;
  for (const match of text.matchAll(SECRET_MARKER)) {
    if (match.index > last) parts.push(text.slice(last, match.index));
    parts.push(h('mark', { class: 'secret', title: 'redacted secret (hash prefix lets you match exchanges)' }, match[0]));
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

function anchorId(prefix, id) {
  return `${prefix}-${id}`;
}
