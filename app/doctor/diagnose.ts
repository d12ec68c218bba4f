// Turning an answer into "what is wrong and which key to change": the
// status an operation answered, a JSON Pointer that found nothing (with a
// pointer that would have), a placeholder nothing fills. Bodies are shown
// short and redacted: a doctor row must never print a token.
import type { HttpResponse } from '../../src/http/client.ts';
import type { Redactor } from '../../src/http/redact.ts';
import type { OperationTemplate } from '../../src/config/sections/operation.ts';
import { unknownPlaceholders, type Placeholders } from '../../src/operations.ts';
import { freshValues } from '../../src/placeholders.ts';

export interface Diagnosis {
  problem: string;
  fix: string;
}

const SNIPPET_CHARS = 160;

/** The body in one short line, secrets replaced by markers. */
export function bodySnippet(res: HttpResponse, redactor: Redactor): string {
  if (!res.text) return '';
  const line = redactor.redactBody(res.text).replace(/\s+/g, ' ').trim();
  return line.length > SNIPPET_CHARS ? `${line.slice(0, SNIPPET_CHARS)}…` : line;
}

/** Why an operation's answer is not the success its template expects, and what to look at. */
export function answerProblem(
  key: string,
  res: HttpResponse,
  request: string | undefined,
  redactor: Redactor,
  expectStatus?: number[],
  pathPlaceholders: readonly string[] = [],
): Diagnosis {
  const sent = request ? ` (sent ${request})` : '';
  // A 404 on a path built from values may be the value (an unknown user), not the path.
  const filled = pathPlaceholders.length ? `, and the value${pathPlaceholders.length === 1 ? '' : 's'} filled into ${pathPlaceholders.map((n) => `{${n}}`).join(', ')}` : '';
  const body = bodySnippet(res, redactor);
  const problem = `${key} answered ${res.status}${body ? `: ${body}` : ''}`;
  const s = res.status;
  let fix: string;
  if (s === 404 || s === 405) fix = `check its method and path${filled}${sent}`;
  else if (s === 400 || s === 422) fix = `the request was refused as invalid: check its body, query and the values of its placeholders${sent}`;
  else if (s === 401) fix = 'the access token was not accepted here: check credentials, and the template\'s "bearer" setting';
  else if (s === 403) fix = `the client may not do this: check the user and headers the template sends${sent}`;
  else if (s >= 200 && s < 300) fix = `if ${s} is this operation's success, add it to ${key}.expectStatus (now ${JSON.stringify(expectStatus ?? [])})`;
  else if (s >= 500) fix = `the target failed on this request: check the template's body and values against the implementation's documentation${sent}`;
  else fix = `expected ${expectStatus?.join(' or ') ?? 'a 2xx answer'}: check the template${sent}`;
  return { problem, fix };
}

function escapeToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The pointer of the first member (breadth first, a few levels deep) named one of `names` with a string or number value. */
export function suggestPointer(document: unknown, names: readonly string[], maxDepth = 4): string | undefined {
  let level: Array<{ pointer: string; value: unknown }> = [{ pointer: '', value: document }];
  for (let depth = 0; depth < maxDepth && level.length; depth++) {
    const next: typeof level = [];
    for (const { pointer, value } of level) {
      if (!value || typeof value !== 'object') continue;
      for (const [key, member] of Object.entries(value as Record<string, unknown>)) {
        const at = `${pointer}/${escapeToken(key)}`;
        if (names.includes(key) && (typeof member === 'string' || typeof member === 'number')) return at;
        next.push({ pointer: at, value: member });
      }
    }
    level = next;
  }
  return undefined;
}

/** A value the template's extract.<name> should have found and did not; `what` says what it is ("the offer id"). */
export function extractProblem(key: string, name: string, res: HttpResponse, redactor: Redactor, what: string, candidates: readonly string[]): Diagnosis {
  const pointerKey = `${key}.extract.${name}`;
  const suggestion = res.json === undefined ? undefined : suggestPointer(res.json, candidates);
  const eg = suggestion ? `, e.g. ${suggestion}` : '';
  return {
    problem: `${pointerKey} found nothing in the answer ${bodySnippet(res, redactor) || '(empty)'}`,
    fix: `point ${pointerKey} at ${what}${eg}`,
  };
}

/** extract.<name> is not set at all. */
export function missingExtract(key: string, name: string, what: string): Diagnosis {
  return { problem: `${key}.extract.${name} is not set`, fix: `set ${key}.extract.${name} to the JSON Pointer of ${what} in the answer (e.g. /data/id)` };
}

/** The placeholders a template names that this operation does not fill (the generated ones always are). */
export function unfilled(template: OperationTemplate, values: Placeholders): string[] {
  return unknownPlaceholders(template, { ...freshValues(), ...values });
}

export function unfilledProblem(key: string, names: string[], values: Placeholders): Diagnosis {
  const known = Object.keys({ ...freshValues(), ...values }).map((n) => `{${n}}`);
  return {
    problem: `${key} names ${names.map((n) => `{${n}}`).join(', ')}, which nothing fills here`,
    fix: `use only ${known.join(' ')} in ${key}, or give ${names.length === 1 ? 'it' : 'them'} a value`,
  };
}
