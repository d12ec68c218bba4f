// Writes JSON with comments for people: each member may carry comment lines
// above it and may be written commented out (every line behind "// ", so an
// editor's toggle-comment switches it on). Every member ends with a comma,
// which profiles allow (src/config/jsonc.ts, and the schema's
// allowTrailingCommas for editors), so uncommenting any member in any order
// leaves valid JSON with comments.

export interface Member {
  key: string;
  /** A nested object of members, or a JSON value. */
  value: Member[] | { json: unknown };
  /** Comment lines written above the member (without "//"). */
  comments?: string[];
  /** Written behind "// " (an example to switch on). */
  commentedOut?: boolean;
}

const WIDTH = 100;
const INDENT = '  ';

/** JSON on one line, with the spaces people write after ':' and ','. */
function inline(value: unknown): string {
  if (Array.isArray(value)) return value.length ? `[${value.map(inline).join(', ')}]` : '[]';
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${inline(v)}`);
    return entries.length ? `{ ${entries.join(', ')} }` : '{}';
  }
  return JSON.stringify(value);
}

/** A value's lines: on one line when that fits the width, else one member per line. */
function valueLines(value: unknown, indent: string, prefixWidth: number): string[] {
  const oneLine = inline(value);
  if (indent.length + prefixWidth + oneLine.length + 1 <= WIDTH || value === null || typeof value !== 'object') return [oneLine];
  const inner = indent + INDENT;
  const isArray = Array.isArray(value);
  const items = isArray ? value.map((v) => ['', v] as const) : Object.entries(value).map(([k, v]) => [`${JSON.stringify(k)}: `, v] as const);
  const lines = [isArray ? '[' : '{'];
  for (const [prefix, item] of items) {
    const [first, ...rest] = valueLines(item, inner, prefix.length);
    const body = [`${inner}${prefix}${first}`, ...rest];
    body[body.length - 1] += ',';
    lines.push(...body);
  }
  lines.push(`${indent}${isArray ? ']' : '}'}`);
  return lines;
}

/** Comment text wrapped at the width, each line behind "// ". */
export function commentLines(text: string, indent: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && indent.length + 3 + line.length + 1 + word.length > WIDTH) {
      lines.push(`${indent}// ${line}`);
      line = '';
    }
    line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(`${indent}// ${line}`);
  return lines;
}

function memberLines(member: Member, indent: string, uncommentAll: boolean): string[] {
  const head = `${JSON.stringify(member.key)}: `;
  let lines: string[];
  if (Array.isArray(member.value)) {
    lines = [`${indent}${head}{`, ...member.value.flatMap((m) => memberLines(m, indent + INDENT, uncommentAll)), `${indent}},`];
  } else {
    const [first, ...rest] = valueLines(member.value.json, indent, head.length);
    lines = [`${indent}${head}${first}`, ...rest];
    lines[lines.length - 1] += ',';
  }
  if (member.commentedOut && !uncommentAll) lines = lines.map((line) => `${indent}// ${line.slice(indent.length)}`);
  return [...(member.comments ?? []).flatMap((text) => commentLines(text, indent)), ...lines];
}

/**
 * The document: header comments, then one object of members. With
 * `uncommentAll`, commented-out members are written live (to test that every
 * example is valid).
 */
export function writeJsonc(header: string[], members: Member[], uncommentAll = false): string {
  const body = members.flatMap((m, i) => [...(i > 0 && Array.isArray(m.value) ? [''] : []), ...memberLines(m, INDENT, uncommentAll)]);
  return [...header.flatMap((text) => commentLines(text, '')), '{', ...body, '}', ''].join('\n');
}
