// A load request template made concrete: what either engine (the embedded
// one, k6) puts on the wire, and what it reads back. Pure, so k6 loads it too.
import { fillJson, fillString, jsonPointer, type Variables } from '../../src/template.ts';
import type { RequestTemplate } from './types.ts';

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
