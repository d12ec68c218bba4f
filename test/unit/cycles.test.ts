// No circles: no file imports, through any chain of relative imports (type
// imports included), a file that imports it back. A circle makes two modules
// one in all but name: neither can be read, tested or moved alone. A circle
// fails here, naming its files in order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fromRoot } from '../../src/paths.ts';

const FOLDERS = ['bin', 'app', 'runner', 'src', 'suites', 'load', 'reports', 'reference', 'console'];
const IMPORT = /(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+\.(?:ts|js))['"]/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(full);
    return /\.ts$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  return new Map(
    files.map((file) => [
      file,
      [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((m) => path.resolve(path.dirname(file), m[1]!)).filter((target) => known.has(target)),
    ]),
  );
}

/** Every strongly connected group of more than one file (Tarjan), each in an order that follows its imports. */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1) found.push(group.reverse());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

test('no file imports itself back through a chain of imports', () => {
  const files = FOLDERS.map((f) => fromRoot(f)).filter(existsSync).flatMap(sourceFiles);
  const found = circles(importGraph(files)).map((group) => group.map((f) => path.relative(fromRoot(), f)).join(' → '));
  assert.deepEqual(found, []);
});

test('the search finds a circle where there is one', () => {
  const graph = new Map([
    ['a', ['b']],
    ['b', ['c']],
    ['c', ['a']],
    ['d', ['a']],
  ]);
  assert.deepEqual(circles(graph), [['a', 'b', 'c']]);
});
