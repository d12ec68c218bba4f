// Every schema file compiles in the registry's strict Ajv: schemas are
// compiled lazily, so one no check happens to use could otherwise hide a
// strict-mode error until a user's tool loads it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { schemasDir } from '../../src/paths.ts';
import { validatorFor, validateAgainst } from '../../src/schemas/registry.ts';

function schemaFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return schemaFiles(full);
    return entry.name.endsWith('.schema.json') ? [path.relative(schemasDir, full).split(path.sep).join('/')] : [];
  });
}

test('every schema compiles in strict mode', () => {
  const files = schemaFiles(schemasDir);
  assert.ok(files.length >= 15, `only ${files.length} schema files`);
  for (const file of files) assert.doesNotThrow(() => validatorFor(file), `${file} does not compile`);
});

test('the token request schema encodes the grant rules of 4.1', () => {
  const ok = { grant_type: 'client_credentials', client_id: 'c', client_secret: 's' };
  assert.deepEqual(validateAgainst('token-request.schema.json', ok), []);
  assert.notDeepEqual(validateAgainst('token-request.schema.json', { grant_type: 'client_credentials', client_id: 'c' }), []);
  assert.notDeepEqual(validateAgainst('token-request.schema.json', { grant_type: 'refresh_token', client_id: 'c' }), []);
  assert.notDeepEqual(validateAgainst('token-request.schema.json', { grant_type: 'password', client_id: 'c' }), []);
});
