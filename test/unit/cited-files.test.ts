// Comments that name a file of the tree ("see src/http/connection.ts") must
// name one that exists: a comment citing a moved or deleted file sends the
// next reader to nothing. Paths are read from the repository root; bare file
// names ("client.ts") are not checked (they are relative to the comment's folder).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FOLDERS = ['bin', 'app', 'src', 'suites', 'load', 'reports', 'reference', 'test', 'bench'];
const CITED = /(?<![\w./-])((?:bin|app|src|suites|load|reports|reference|test|bench|schemas|spec)\/[\w./-]*[\w-]\.(?:json|jsonc|yaml|md|ts|js)\b)/g;
const COMMENT = /^\s*(\/\/|\*|\/\*)/;

function sourceFiles(folder: string): string[] {
  return readdirSync(path.join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)));
}

test('every file a comment cites by its path from the root exists', () => {
  const missing: string[] = [];
  for (const file of FOLDERS.flatMap(sourceFiles)) {
    readFileSync(path.join(ROOT, file), 'utf8').split('\n').forEach((line, i) => {
      if (!COMMENT.test(line)) return;
      for (const [, cited] of line.matchAll(CITED)) {
        // A glob or a pattern ("suites/<area>/x.ts", "schemas/profile/*.schema.json") names no one file.
        if (/[*<>{]/.test(cited!) || existsSync(path.join(ROOT, cited!))) continue;
        missing.push(`${file}:${i + 1} cites ${cited}`);
      }
    });
  }
  assert.deepEqual(missing, []);
});
