// Filling templates with {placeholders}, shared by the checks
// (src/operations.ts), the embedded engine and the k6 scripts
// (load/scenarios/request.ts). Pure TypeScript with no imports, so k6 can
// load it too.

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
