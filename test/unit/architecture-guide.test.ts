// ARCHITECTURE.md stays true: every path it names exists, every code excerpt
// introduced by "From `file`:" (or "in `file`:") is that file's own text, and
// the worked example's check is registered with the area and severity the
// guide says the catalogue gives it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fromRoot } from '../../src/paths.ts';
import { listConformanceChecks } from '../../app/run/list.ts';

const guide = readFileSync(fromRoot('ARCHITECTURE.md'), 'utf8');

test('every path the guide names exists', () => {
  const paths = [...guide.matchAll(/`((?:bin|app|src|suites|load|reports|reference|schemas|spec|test)\/[^`\s]*|playwright\.config\.ts)`/g)].map((m) => m[1]!.replace(/<[^>]+>.*$/, ''));
  assert.ok(paths.length > 20, 'the guide names the files it describes');
  // A glob (schemas/profile/*.schema.json) names its folder.
  const missing = paths.map((p) => p.replace(/\/[^/]*\*.*$/, '')).filter((p) => !existsSync(fromRoot(p)));
  assert.deepEqual(missing, []);
});

test('every code excerpt is the named file\'s own text', () => {
  const excerpts = [...guide.matchAll(/`([^`]+)`(?::|\s*:)\s*\n\n```\w+\n([\s\S]*?)```/g)];
  assert.ok(excerpts.length >= 4, `found ${excerpts.length} excerpts`);
  for (const [, file, code] of excerpts) {
    assert.ok(readFileSync(fromRoot(file!), 'utf8').includes(code!), `the excerpt from ${file} is no longer in it:\n${code}`);
  }
});

test("the worked example's check is registered, its area and severity derived from the catalogue", async () => {
  const check = (await listConformanceChecks()).find((c) => c.id === 'users.accept-language-accepted');
  assert.deepEqual(check && { area: check.area, severity: check.severity, requirements: check.requirements }, { area: 'users', severity: 'MUST', requirements: ['USERS-ACCEPT-LANGUAGE'] });
});
