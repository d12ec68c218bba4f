// The floors of the house, enforced: the core (src/) imports nothing above it;
// the reference, the checks (suites/), load and the reports build on the core
// and never on the orchestration (app/) or the CLI (bin/); the orchestration
// never imports the CLI. An arrow running back up fails here, naming the file
// and the import.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fromRoot } from '../../src/paths.ts';

/** Each floor and the floors its files may import from (its own included). */
const MAY_IMPORT: Record<string, string[]> = {
  src: ['src'],
  reference: ['src', 'reference'],
  suites: ['src', 'suites', 'reference'],
  load: ['src', 'load'],
  reports: ['src', 'reports', 'load'],
  app: ['src', 'reference', 'suites', 'load', 'reports', 'app'],
  bin: ['src', 'reference', 'suites', 'load', 'reports', 'app', 'bin'],
};

const IMPORT = /(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

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
      for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const target = floorOf(path.resolve(path.dirname(file), match[1]!));
        if (!MAY_IMPORT[floor]!.includes(target)) violations.push(`${path.relative(fromRoot(), file)} imports ${match[1]} (${floor}/ may import ${MAY_IMPORT[floor]!.join(', ')})`);
      }
    }
  }
  assert.deepEqual(violations, []);
});
