// Building the console's DOM: elements with text children and attributes,
// never HTML from strings. Everything a user or a run supplies (names,
// profile values, check titles and reasons) reaches the page through here, as
// text nodes and attribute values, so markup in it stays text.

export type Child = Node | string | number | null | undefined | false;

export interface Props {
  class?: string;
  /** Attributes; event handler attributes and style are refused (the policy forbids them anyway). */
  attrs?: Record<string, string | undefined>;
  dataset?: Record<string, string | undefined>;
  on?: { [K in keyof HTMLElementEventMap]?: (event: HTMLElementEventMap[K]) => void };
}

function setAttributes(el: Element, attrs: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined) continue;
    if (/^on/i.test(name) || name.toLowerCase() === 'style') throw new Error(`refused attribute ${name}`);
    el.setAttribute(name, value);
  }
}

function append(el: Element, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.append(typeof child === 'number' ? String(child) : child);
  }
}

/** An HTML element; string children become text nodes. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props | null = null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props?.class) el.className = props.class;
  if (props?.attrs) setAttributes(el, props.attrs);
  if (props?.dataset) for (const [k, v] of Object.entries(props.dataset)) if (v !== undefined) el.dataset[k] = v;
  if (props?.on) for (const [type, handler] of Object.entries(props.on)) el.addEventListener(type, handler as EventListener);
  append(el, children);
  return el;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** An SVG element (the sparkline). */
export function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number> = {}, ...children: Child[]): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG_NS, tag);
  setAttributes(el, Object.fromEntries(Object.entries(attrs).map(([k, v]) => [k, String(v)])));
  append(el, children);
  return el;
}

/** Replaces an element's children. */
export function fill(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

/** A link the app's router follows without reloading the page. */
export function link(href: string, ...children: Child[]): HTMLAnchorElement {
  return h('a', { attrs: { href }, dataset: { link: '' } }, ...children);
}

/** A notice (role=alert for errors). */
export function notice(kind: 'info' | 'danger' | 'warn', ...children: Child[]): HTMLElement {
  return h('p', { class: `notice notice-${kind}`, attrs: kind === 'danger' ? { role: 'alert' } : undefined }, ...children);
}
