// Filling request templates, shared by the k6 scripts, the embedded engine
// and the checks (src/operations.ts). Pure TypeScript with no imports, so k6
// can load it too.
import type { RequestTemplate } from './types.ts';

export type Variables = Record<string, string | number | boolean | null | undefined>;

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

export function fillString(template: string, values: Variables, encode = false): string {
  return template.replace(PLACEHOLDER, (match, name: string) => {
    if (!(name in values) || values[name] === undefined) return match;
    const value = String(values[name]);
    return encode ? encodeURIComponent(value) : value;
  });
}

/** The distinct {placeholder} names a text mentions, in order. */
export function placeholdersIn(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]!))];
}

/** Fills a JSON template; a string that is exactly "{name}" takes the value's own JSON type. */
export function fillJson(template: unknown, values: Variables): unknown {
  if (typeof template === 'string') {
    const whole = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(template);
    if (whole && whole[1]! in values) return values[whole[1]!];
    return fillString(template, values);
  }
  if (Array.isArray(template)) return template.map((item) => fillJson(item, values));
  if (template && typeof template === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(template)) out[key] = fillJson((template as Record<string, unknown>)[key], values);
    return out;
  }
  return template;
}

/** RFC 6901 JSON Pointer lookup. */
export function jsonPointer(document: unknown, pointer: string): unknown {
  if (pointer === '') return document;
  let current: unknown = document;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

export interface FilledRequest {
  name: string;
  method: string;
  /** Path plus query string, placeholders filled and encoded. */
  pathAndQuery: string;
  headers: Record<string, string>;
  body?: string;
}

/** A template made concrete: what either engine puts on the wire. */
export function fillRequest(template: RequestTemplate, values: Variables): FilledRequest {
  let pathAndQuery = fillString(template.path, values, true);
  const query = template.query ?? {};
  const pairs = Object.keys(query).map((k) => `${encodeURIComponent(k)}=${encodeURIComponent(fillString(query[k]!, values))}`);
  if (pairs.length) pathAndQuery += (pathAndQuery.includes('?') ? '&' : '?') + pairs.join('&');
  const headers: Record<string, string> = { accept: 'application/json' };
  for (const [k, v] of Object.entries(template.headers ?? {})) headers[k.toLowerCase()] = fillString(v, values);
  if (template.bearer) headers['authorization'] = `Bearer ${String(values.accessToken ?? '')}`;
  let body: string | undefined;
  if (template.json !== undefined) {
    body = JSON.stringify(fillJson(template.json, values));
    headers['content-type'] ??= 'application/json';
  }
  return { name: template.name, method: template.method, pathAndQuery, headers, body };
}

/** Variables extracted from a JSON answer by the template's pointers. */
export function extractVariables(template: RequestTemplate, json: unknown): Variables {
  const out: Variables = {};
  for (const [name, pointer] of Object.entries(template.extract ?? {})) {
    const value = jsonPointer(json, pointer);
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) out[name] = value as string | number | boolean | null;
  }
  return out;
}
