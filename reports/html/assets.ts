// The page's stylesheet and browser script, inlined into every report. The
// script is TypeScript (reports/html/client/, entry main.ts, type-checked with
// the DOM library by reports/html/client/tsconfig.json) bundled by esbuild
// into one IIFE, once per process.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));

let script: string | undefined;
let style: string | undefined;

function bundleClient(): string {
  const { outputFiles } = buildSync({
    entryPoints: [path.join(here, 'client', 'main.ts')],
    bundle: true,
    format: 'iife',
    // A Node import in the client fails the build rather than the page.
    platform: 'browser',
    target: 'es2020',
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
  });
  return outputFiles[0]!.text;
}

export function clientScript(): string {
  script ??= bundleClient();
  return script;
}

export function pageStyle(): string {
  style ??= readFileSync(path.join(here, 'page.css'), 'utf8');
  return style;
}
