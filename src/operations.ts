// Calls an operation the spec does not show (create an offer, read its
// status, register a webhook address, trigger an event) as the profile
// describes it: templates with {placeholders}, values extracted by JSON Pointer.
import type { HttpClient, HttpResponse } from './http/client.ts';
import type { OperationTemplate } from './config/sections/operation.ts';

export type Placeholders = Record<string, string | number | boolean | null | undefined>;

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Fills {name} placeholders; a string that is exactly "{name}" takes the value's own JSON type. */
export function fillTemplate(template: unknown, values: Placeholders): unknown {
  if (typeof template === 'string') {
    const whole = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(template);
    if (whole && whole[1]! in values) return values[whole[1]!];
    return template.replace(PLACEHOLDER, (match, name: string) => (name in values ? String(values[name]) : match));
  }
  if (Array.isArray(template)) return template.map((item) => fillTemplate(item, values));
  if (template && typeof template === 'object') {
    return Object.fromEntries(Object.entries(template).map(([k, v]) => [k, fillTemplate(v, values)]));
  }
  return template;
}

function fillString(template: string, values: Placeholders, encode: boolean): string {
  return template.replace(PLACEHOLDER, (match, name: string) => {
    if (!(name in values)) return match;
    const value = String(values[name]);
    return encode ? encodeURIComponent(value) : value;
  });
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

export interface OperationResult {
  response: HttpResponse;
  /** True when the status is one the template counts as success. */
  ok: boolean;
  extracted: Record<string, unknown>;
}

export async function callOperation(
  http: HttpClient,
  template: OperationTemplate,
  values: Placeholders,
  options: { bearer?: string; label: string; headers?: Record<string, string> },
): Promise<OperationResult> {
  const path = fillString(template.path, values, true);
  const query = template.query
    ? Object.fromEntries(Object.entries(template.query).map(([k, v]) => [k, fillString(v, values, false)]))
    : undefined;
  const headers = {
    ...(template.headers ? Object.fromEntries(Object.entries(template.headers).map(([k, v]) => [k, fillString(v, values, false)])) : {}),
    ...options.headers,
  };
  const response = await http.request({
    method: template.method,
    path,
    query,
    headers,
    json: template.body === undefined ? undefined : fillTemplate(template.body, values),
    bearer: template.bearer === false ? undefined : options.bearer,
    label: options.label,
  });
  const ok = template.expectStatus ? template.expectStatus.includes(response.status) : response.status >= 200 && response.status < 300;
  const extracted = Object.fromEntries(
    Object.entries(template.extract ?? {}).map(([name, pointer]) => [name, response.json === undefined ? undefined : jsonPointer(response.json, pointer)]),
  );
  return { response, ok, extracted };
}
