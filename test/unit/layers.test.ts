// The floors of the house, enforced: the core (src/) imports nothing above it;
// the runner floor (runner/: everything Playwright-specific) builds on the
// core alone; the reference, the checks (suites/, on the runner), load and the
// reports build on the core and never on the orchestration (app/) or the CLI
// (bin/); the orchestration never imports the CLI. The console's browser app
// (console/) builds on the core, and takes only types from the orchestration
// (the contract of `ptas serve`, app/serve/), which bundling erases. An arrow
// running back up fails here, naming the file and the import. Playwright is
// the runner floor's: no other floor of the product imports it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fromRoot } from '../../src/paths.ts';

/** Each floor and the floors its files may import from (its own included). */
const MAY_IMPORT: Record<string, string[]> = {
  src: ['src'],
  runner: ['src', 'runner'],
  reference: ['src', 'reference'],
  suites: ['src', 'runner', 'suites', 'reference'],
  load: ['src', 'load'],
  // The runner too: the suites' webhook sessions it judges through open on the runner's webhook hub.
  explore: ['src', 'runner', 'suites', 'explore'],
  reports: ['src', 'reports', 'load'],
  app: ['src', 'runner', 'reference', 'suites', 'explore', 'load', 'reports', 'app'],
  bin: ['src', 'runner', 'reference', 'suites', 'explore', 'load', 'reports', 'app', 'bin'],
  console: ['console', 'src'],
};

/** Floors a floor may take types from, in `import type` only (nothing of them runs in it). */
const MAY_IMPORT_TYPES: Record<string, string[]> = {
  console: ['app'],
};

/** Playwright's packages, as an import names them. */
const PLAYWRIGHT_IMPORT = /(?:from|import)\s*\(?\s*['"](?:@playwright\/test|playwright)(?:\/[^'"]*)?['"]/;

const IMPORT = /(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

/** `import type … from '…'` and `export type … from '…'`: the module paths imported for types only. */
const TYPE_ONLY_IMPORT = /(?:^|[\n;])\s*(?:import|export)\s+type\s[^;]*?from\s*['"](\.{1,2}\/[^'"]+)['"]/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(ts|js)$/.test(name) ? [full] : [];
  });
}

function floorOf(file: string): string {
  return path.relative(fromRoot(), file).split(path.sep)[0]!;
}

test('no import runs back up a floor', () => {
  const violations: string[] = [];
  for (const floor of Object.keys(MAY_IMPORT)) {
    for (const file of sourceFiles(fromRoot(floor))) {
      const text = readFileSync(file, 'utf8');
      // How many of each path's imports are for types only: a value import of the same path is not.
      const typeOnly = new Map<string, number>();
      for (const m of text.matchAll(TYPE_ONLY_IMPORT)) typeOnly.set(m[1]!, (typeOnly.get(m[1]!) ?? 0) + 1);
      const imports = new Map<string, number>();
      for (const m of text.matchAll(IMPORT)) imports.set(m[1]!, (imports.get(m[1]!) ?? 0) + 1);
      for (const match of text.matchAll(IMPORT)) {
        const target = floorOf(path.resolve(path.dirname(file), match[1]!));
        if (MAY_IMPORT[floor]!.includes(target)) continue;
        if (typeOnly.get(match[1]!) === imports.get(match[1]!) && MAY_IMPORT_TYPES[floor]?.includes(target)) continue;
        const types = MAY_IMPORT_TYPES[floor] ? `, and types only from ${MAY_IMPORT_TYPES[floor]!.join(', ')}` : '';
        violations.push(`${path.relative(fromRoot(), file)} imports ${match[1]} (${floor}/ may import ${MAY_IMPORT[floor]!.join(', ')}${types})`);
      }
    }
  }
  assert.deepEqual(violations, []);
});

test('only the runner floor imports Playwright: the core and the checks do not know what runs them', () => {
  const importers = Object.keys(MAY_IMPORT)
    .filter((floor) => floor !== 'runner')
    .flatMap((floor) => sourceFiles(fromRoot(floor)))
    .filter((file) => PLAYWRIGHT_IMPORT.test(readFileSync(file, 'utf8')))
    .map((file) => path.relative(fromRoot(), file));
  assert.deepEqual(importers, []);
  // The rule can fail: the runner's own files match it.
  assert.ok(sourceFiles(fromRoot('runner')).some((file) => PLAYWRIGHT_IMPORT.test(readFileSync(file, 'utf8'))));
});
