// DOM helpers of the report page. Every string that came from a run (and so
// possibly from a hostile server) reaches the page through textContent or
// setAttribute here and is never parsed as markup.

const SVG_NS = 'http://www.w3.org/2000/svg';

/** What h() and s() append: strings and numbers become text nodes; null, undefined and false are left out. */
export type Child = Node | string | number | null | undefined | false | readonly Child[];

/** Attributes; `class`, `dataset` and `on…` (an event listener) are treated apart. */
export type Attributes = Record<string, string | number | boolean | null | undefined | EventListener | Record<string, string>>;

function append<T extends Node>(parent: T, children: readonly Child[]): T {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child as readonly Child[]);
    else if (typeof child === 'string' || typeof child === 'number') parent.appendChild(document.createTextNode(String(child)));
    else parent.appendChild(child as Node);
  }
  return parent;
}

function setAttributes<T extends HTMLElement | SVGElement>(el: T, attrs: Attributes | null | undefined): T {
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === 'class') el.setAttribute('class', String(value));
    else if (name === 'dataset') Object.assign(el.dataset, value);
    else if (name.startsWith('on')) el.addEventListener(name.slice(2), value as EventListener);
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  return el;
}

/** h('div', { class: 'x' }, 'text', child…) */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs?: Attributes | null, ...children: Child[]): HTMLElementTagNameMap[K] {
  return append(setAttributes(document.createElement(tag), attrs), children);
}

/** An SVG element, as h() makes an HTML one. */
export function s<K extends keyof SVGElementTagNameMap>(tag: K, attrs?: Attributes | null, ...children: Child[]): SVGElementTagNameMap[K] {
  return append(setAttributes(document.createElementNS(SVG_NS, tag), attrs), children);
}

export function badge(verdict: string): HTMLSpanElement {
  return h('span', { class: `badge v-${verdict}` }, verdict);
}

const SECRET_MARKER = /«[^«»\n]{1,80}»/g;

/** Text with the redaction markers («access_token#3032ff50») marked, so a reader sees where a secret was. */
export function withMarkers(text: string): Child[] {
  const parts: Child[] = [];
  let last = 0;
  for (const match of text.matchAll(SECRET_MARKER)) {
    const index = match.index ?? 0;
    if (index > last) parts.push(text.slice(last, index));
    parts.push(h('mark', { class: 'secret', title: 'redacted secret (hash prefix lets you match exchanges)' }, match[0]));
    last = index + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

export function anchorId(prefix: string, id: string): string {
  return `${prefix}-${id}`;
}
