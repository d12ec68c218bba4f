// The console's browser app: console/main.ts and what it imports (CodeMirror
// with JSON-schema linting and completion among it), bundled by esbuild into
// one script, and console/app.css; each served under a name carrying its
// content hash (/assets/app.<hash>.js), built once per process. Nothing comes
// from a CDN. Two pieces of codemirror-json-schema are replaced at bundling:
// its Markdown renderer (markdown-it with the shiki highlighter, megabytes
// and a WebAssembly engine) by one that escapes the text, and its YAML parser
// (a mode the console never uses) by nothing.
import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import type { Plugin } from 'esbuild';
import { fromRoot } from '../../../src/paths.ts';

export interface Asset {
  /** "app.1a2b3c4d5e6f.js" */
  name: string;
  contentType: string;
  body: Buffer;
  /** The body gzip-compressed, for browsers that accept it. */
  gzip: Buffer;
}

export interface ConsoleAssets {
  script: Asset;
  style: Asset;
  /** Every file the bundle was built from (tests: no Node module among them). */
  inputs: string[];
}

const CONSOLE_DIR = fromRoot('console');

/** Stand-ins for the parts of codemirror-json-schema the console does without (see above). */
const STUBS: Array<{ filter: RegExp; contents: string }> = [
  {
    filter: /(^|[\\/])utils[\\/]markdown(\.js)?$/,
    contents: `const ESC = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export function renderMarkdown(text) { return String(text ?? '').replace(/[&<>"']/g, (c) => ESC[c]); }`,
  },
  { filter: /(^|[\\/])yaml-parser(\.js)?$/, contents: 'export function parseYAMLDocumentState() { return { data: null, pointers: new Map() }; }' },
];

const stubPlugin: Plugin = {
  name: 'console-stubs',
  setup(build) {
    for (const [i, stub] of STUBS.entries()) {
      build.onResolve({ filter: stub.filter }, (args) => (args.importer.includes(`${path.sep}codemirror-json-schema${path.sep}`) ? { path: `stub-${i}`, namespace: 'console-stub' } : undefined));
    }
    build.onLoad({ filter: /.*/, namespace: 'console-stub' }, (args) => ({ contents: STUBS[Number(args.path.slice('stub-'.length))]!.contents, loader: 'js' }));
  },
};

function hashed(base: string, ext: string, contentType: string, body: Buffer): Asset {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
  return { name: `${base}.${hash}.${ext}`, contentType, body, gzip: gzipSync(body, { level: 9 }) };
}

async function build(): Promise<ConsoleAssets> {
  const { build: esbuild } = await import('esbuild');
  const result = await esbuild({
    entryPoints: [path.join(CONSOLE_DIR, 'main.ts')],
    bundle: true,
    format: 'iife',
    // A Node import in the browser app fails the build rather than the page.
    platform: 'browser',
    target: 'es2022',
    minify: true,
    write: false,
    metafile: true,
    legalComments: 'none',
    logLevel: 'silent',
    plugins: [stubPlugin],
  });
  const script = Buffer.from(result.outputFiles[0]!.text);
  const style = await readFile(path.join(CONSOLE_DIR, 'app.css'));
  return {
    script: hashed('app', 'js', 'text/javascript; charset=utf-8', script),
    style: hashed('app', 'css', 'text/css; charset=utf-8', style),
    inputs: Object.keys(result.metafile.inputs),
  };
}

let built: Promise<ConsoleAssets> | undefined;

/** The bundled app, built on first call and kept for the process. */
export function consoleAssets(): Promise<ConsoleAssets> {
  built ??= build().catch((error: unknown) => {
    built = undefined;
    throw error;
  });
  return built;
}
