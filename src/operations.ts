// Calls an operation the spec does not show (create an offer, read its
// status, register a webhook address, trigger an event) as the profile
// describes it: templates with {placeholders}, values extracted by JSON Pointer.
import type { HttpClient, HttpResponse } from './http/client.ts';
import type { Bearer } from './http/outgoing.ts';
import type { OperationTemplate } from './config/sections/operation.ts';
// The load engines fill their request templates the same way; one implementation serves both.
import { fillJson, fillString, jsonPointer, placeholdersIn, type Variables } from './template.ts';
import { freshValues } from './placeholders.ts';
import { PtasError } from './errors.ts';

/** Values for a template's {placeholders}. */
export type Placeholders = Variables;

export interface OperationResult {
  response: HttpResponse;
  /** True when the status is one the template counts as success. */
  ok: boolean;
  extracted: Record<string, unknown>;
}

/** A template names a placeholder this operation does not fill: the profile is wrong, not the implementation. */
export class TemplateError extends PtasError {
  readonly code = 'template';
  override name = 'TemplateError';
}

/** The {placeholders} a template names that are not among the values (unset values count as known: they are left out). */
export function unknownPlaceholders(template: OperationTemplate, values: Placeholders): string[] {
  const text = JSON.stringify([template.path, template.query ?? {}, template.headers ?? {}, template.body ?? null]);
  return placeholdersIn(text).filter((name) => !(name in values));
}

export async function callOperation(
  http: HttpClient,
  template: OperationTemplate,
  values: Placeholders,
  options: { bearer?: Bearer; label: string; headers?: Record<string, string> },
): Promise<OperationResult> {
  // Generated values ({uuid}, {unique}, {now}, …) are fresh per call; the caller's values win.
  values = { ...freshValues(), ...values };
  const unknown = unknownPlaceholders(template, values);
  if (unknown.length) {
    throw new TemplateError(
      `the template for "${options.label}" names ${unknown.map((n) => `{${n}}`).join(', ')}, which this operation does not fill (it fills ${Object.keys(values).map((n) => `{${n}}`).join(', ')})`,
    );
  }
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
    json: template.body === undefined ? undefined : fillJson(template.body, values),
    bearer: template.bearer === false ? undefined : options.bearer,
    label: options.label,
  });
  const ok = template.expectStatus ? template.expectStatus.includes(response.status) : response.status >= 200 && response.status < 300;
  const extracted = Object.fromEntries(
    Object.entries(template.extract ?? {}).map(([name, pointer]) => [name, response.json === undefined ? undefined : jsonPointer(response.json, pointer)]),
  );
  return { response, ok, extracted };
}
