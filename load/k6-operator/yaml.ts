// Kubernetes manifests as YAML, from plain data (maps, lists, strings,
// numbers, booleans): enough for what ptas writes, without a YAML library
// at run time. A multi-line string (the bundled script) is a literal block
// with an explicit indentation indicator, so it comes back byte for byte;
// any other string is a JSON string, which YAML reads as a double-quoted
// scalar with the same escapes.
type Data = string | number | boolean | null | undefined | Data[] | { [key: string]: Data };

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_.\/-]*$/;
/** Characters a literal block cannot hold (YAML's non-printable ones, CR, line separators, BOM). */
const NOT_IN_BLOCK = /[\u0000-\u0008\u000b-\u001f\u007f\u0085\u2028\u2029\ufeff]/;

function scalar(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' && !Number.isFinite(value)) throw new Error(`YAML: ${value} is not a number a manifest can hold`);
  return String(value);
}

/** A literal block for a multi-line string, its content indented `indent` spaces deeper than its key. */
function block(text: string, indent: number): string {
  const trailing = /\n*$/.exec(text)![0].length;
  const chomp = trailing === 0 ? '-' : trailing === 1 ? '' : '+';
  const body = trailing === 0 ? text : text.slice(0, -1);
  const pad = ' '.repeat(indent);
  return `|2${chomp}\n${body.split('\n').map((line) => (line ? pad + line : '')).join('\n')}`;
}

function key(name: string): string {
  return PLAIN_KEY.test(name) ? name : JSON.stringify(name);
}

function isMultiline(value: Data): value is string {
  return typeof value === 'string' && value.includes('\n') && !NOT_IN_BLOCK.test(value);
}

function lines(value: Data, indent: number): string[] {
  const pad = ' '.repeat(indent);
  if (Array.isArray(value)) {
    if (value.length === 0) return [`${pad}[]`];
    return value.flatMap((item) => {
      if (item !== null && typeof item === 'object') {
        const inner = lines(item, indent + 2);
        return [`${pad}- ${inner[0]!.trimStart()}`, ...inner.slice(1)];
      }
      return [`${pad}- ${isMultiline(item) ? block(item, indent + 2) : scalar(item as Exclude<Data, object>)}`];
    });
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return [`${pad}{}`];
    return entries.flatMap(([k, v]) => {
      if (v !== null && typeof v === 'object' && (!Array.isArray(v) || v.length > 0)) return [`${pad}${key(k)}:`, ...lines(v, Array.isArray(v) ? indent : indent + 2)];
      if (Array.isArray(v)) return [`${pad}${key(k)}: []`];
      return [`${pad}${key(k)}: ${isMultiline(v) ? block(v, indent + 2) : scalar(v as Exclude<Data, object>)}`];
    });
  }
  return [`${pad}${scalar(value)}`];
}

/** One YAML document. */
export function toYaml(value: Data): string {
  return lines(value, 0).join('\n') + '\n';
}

/** Several documents in one file, separated by ---. */
export function toYamlDocuments(values: Data[]): string {
  return values.map((v) => `---\n${toYaml(v)}`).join('');
}

export type { Data as YamlData };
