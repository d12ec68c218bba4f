// JSON with comments: what the profile loader accepts beyond JSON, that it
// reads plain JSON exactly as JSON.parse does, and that a syntax error names
// the line and column without quoting the file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { JsoncSyntaxError, MAX_JSONC_DEPTH, parseJsonc } from '../../src/config/jsonc.ts';
import { readProfileFile } from '../../src/config/load.ts';
import { ConfigError } from '../../src/config/errors.ts';
import { referenceProfile } from '../../reference/profile.ts';

function syntaxError(text: string): JsoncSyntaxError {
  try {
    parseJsonc(text);
  } catch (error) {
    assert.ok(error instanceof JsoncSyntaxError, `expected JsoncSyntaxError, got ${String(error)}`);
    return error;
  }
  assert.fail(`parsed without error: ${text}`);
}

test('plain JSON parses exactly as JSON.parse parses it', () => {
  const samples = [
    JSON.stringify(referenceProfile('http://127.0.0.1:8080'), null, 2),
    JSON.stringify(referenceProfile('http://127.0.0.1:8080')),
    '{"a": "x\\"y\\\\", "b": "\\u00e9\\n\\t\\/", "c": [1, -2.5e3, 0, 1E-2, true, false, null], "d": {}, "e": []}',
    '"just a string"',
    ' 42 ',
    '{"a": 1, "a": 2}',
    '{"__proto__": {"polluted": true}}',
    '\uFEFF{"bom": true}',
  ];
  for (const text of samples) assert.deepEqual(parseJsonc(text), JSON.parse(text.replace(/^\uFEFF/, '')), text.slice(0, 60));
  const proto = parseJsonc('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
  assert.ok(Object.hasOwn(proto, '__proto__'), '"__proto__" is an own key, as with JSON.parse');
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test('line and block comments and trailing commas are allowed', () => {
  const text = [
    '// a starter profile',
    '{',
    '  /* the target */ "baseUrl": "http://127.0.0.1:8080", // trailing comment',
    '  "list": [1, 2, /* two */ 3,],',
    '  /*',
    '   * a block',
    '   */',
    '  "nested": { "a": 1, },',
    '}',
    '// the end',
  ].join('\n');
  assert.deepEqual(parseJsonc(text), { baseUrl: 'http://127.0.0.1:8080', list: [1, 2, 3], nested: { a: 1 } });
});

test('comment markers and quotes inside strings are text, not syntax', () => {
  const text = '{"url": "http://x/*y*/", "c": "// not a comment", "q": "say \\"hi\\" // still text", "s": "a\\\\", "t": "/*"}';
  assert.deepEqual(parseJsonc(text), JSON.parse(text));
});

test('a syntax error names its line and column', () => {
  const missingComma = syntaxError('{\n  "a": 1 // one\n  "b": 2\n}');
  assert.equal(missingComma.line, 3);
  assert.equal(missingComma.column, 3);
  assert.match(missingComma.message, /^line 3, column 3: expected ',' or '}', found "\\""/);

  const missingValue = syntaxError('{\n  /* x */ "a": ,\n}');
  assert.deepEqual([missingValue.line, missingValue.column], [2, 16]);
  assert.match(missingValue.message, /expected a value, found ","/);

  const unclosed = syntaxError('{\n  "a": 1\n  /* never closed\n}');
  assert.deepEqual([unclosed.line, unclosed.column], [3, 3]);
  assert.match(unclosed.message, /never closed/);

  const truncated = syntaxError('{\n  "a": [1, 2');
  assert.match(truncated.message, /^line 2, column 13: .*end of file/);
});

test('what JSON forbids stays forbidden: single quotes, bare keys, double commas, raw newlines in strings, leftovers', () => {
  for (const text of ["{'a': 1}", '{a: 1}', '[1,,2]', '[,]', '{"a": "x\ny"}', '{"a": 01}', '{"a": 1} x', '', '{"a": tru}', '{"a": "\\x"}']) {
    syntaxError(text);
  }
});

test('an error quotes one character, never the file (which may hold a secret)', () => {
  const error = syntaxError('{"clientSecret": "hunter2-very-secret" "x": 1}');
  assert.doesNotMatch(error.message, /hunter2/);
});

test('readProfileFile reads comments and names line and column of a syntax error', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ptas-jsonc-'));
  const good = path.join(dir, 'good.jsonc');
  writeFileSync(good, '{\n  // the target\n  "baseUrl": "http://127.0.0.1:8080",\n  "http": { "timeoutMs": 5000, },\n}\n');
  assert.deepEqual(readProfileFile(good), { baseUrl: 'http://127.0.0.1:8080', http: { timeoutMs: 5000 } });

  const bad = path.join(dir, 'bad.jsonc');
  writeFileSync(bad, '{\n  "baseUrl": "http://127.0.0.1:8080"\n  "http": {}\n}\n');
  assert.throws(
    () => readProfileFile(bad),
    (error: unknown) => error instanceof ConfigError && /bad\.jsonc is not valid JSON.*line 3, column 3/.test(error.message),
  );
});

test('nesting beyond MAX_JSONC_DEPTH is a syntax error at the bracket that goes too deep, not a stack overflow', () => {
  const within = `${'['.repeat(MAX_JSONC_DEPTH)}${']'.repeat(MAX_JSONC_DEPTH)}`;
  assert.equal(JSON.stringify(parseJsonc(within)), within);
  const error = syntaxError(`{"a":\n ${'['.repeat(100_000)}`);
  assert.match(error.message, new RegExp(`^line 2, column ${MAX_JSONC_DEPTH + 1}: nested deeper than ${MAX_JSONC_DEPTH} levels`));
});
