// The page's stylesheet and browser script, read from reports/html/ and
// inlined into every report. The script files are plain browser JavaScript
// sharing one scope: they are concatenated, in this order, into one IIFE.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Dependencies first: each file uses only what files before it (or itself) define at call time. */
const CLIENT_FILES = ['dom.js', 'charts.js', 'evidence.js', 'diff.js', 'checks.js', 'matrix.js', 'filters.js', 'load.js', 'main.js'];

let script: string | undefined;
let style: string | undefined;

export function clientScript(): string {
  script ??= `(() => {\n'use strict';\n${CLIENT_FILES.map((f) => `// --- ${f}\n${readFileSync(path.join(here, 'client', f), 'utf8')}`).join('\n')}\n})();\n`;
  return script;
}

export function pageStyle(): string {
  style ??= readFileSync(path.join(here, 'page.css'), 'utf8');
  return style;
}
