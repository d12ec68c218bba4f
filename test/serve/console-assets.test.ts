// The console's browser app as served: one script bundled for the browser
// with no Node module in it, none of the Markdown and highlighting machinery
// codemirror-json-schema would drag in (markdown-it, shiki and its
// WebAssembly) nor its YAML support, and a size that stays in check.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinModules } from 'node:module';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { consoleAssets } from '../../app/serve/console/assets.ts';
import { fromRoot } from '../../src/paths.ts';

const SCRIPT_BUDGET = 800 * 1024;

function consoleSources(dir = fromRoot('console')): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? consoleSources(full) : name.endsWith('.ts') ? [full] : [];
  });
}

test('the bundle holds no Node module, no Markdown or highlighter, no YAML', async () => {
  const assets = await consoleAssets();
  const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
  const nodeInputs = assets.inputs.filter((input) => input.startsWith('node:') || builtins.has(input) || /node_modules\/(?:@types\/node|buffer|process|util|events|stream-browserify)\//.test(input));
  assert.deepEqual(nodeInputs, []);
  const unwanted = assets.inputs.filter((input) => /node_modules\/(?:shiki|@shikijs|markdown-it|yaml|@codemirror\/lang-yaml)\//.test(input));
  assert.deepEqual(unwanted, []);
  assert.ok(assets.inputs.some((input) => input.includes('codemirror-json-schema')), 'the schema tools are in');
  for (const file of consoleSources()) assert.doesNotMatch(readFileSync(file, 'utf8'), /from\s+['"]node:|require\(/, path.relative(fromRoot(), file));
});

test('the script and stylesheet are named by their content and fit the budget', async () => {
  const { script, style } = await consoleAssets();
  assert.match(script.name, /^app\.[0-9a-f]{16}\.js$/);
  assert.match(style.name, /^app\.[0-9a-f]{16}\.css$/);
  assert.ok(script.body.length < SCRIPT_BUDGET, `the script is ${script.body.length} bytes, over ${SCRIPT_BUDGET}`);
  assert.ok(script.gzip.length < script.body.length / 2);
  // No eval-like construct the policy (script-src 'self', no 'unsafe-eval') would block at run time.
  assert.doesNotMatch(script.body.toString('utf8'), /\bnew Function\(|\beval\(/);
});
