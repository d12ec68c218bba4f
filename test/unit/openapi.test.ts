// schemas/openapi.yaml must stay true to the spec and to the schema files it
// assembles: every operation of 4.1-4.4 and the 6.1 webhook, the status codes
// of section 7, and $refs that resolve to schemas the suite itself uses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { fromRoot } from '../../src/paths.ts';
import { validatorFor } from '../../src/schemas/registry.ts';

type Operation = { responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>; requestBody?: { content: Record<string, { schema: { $ref: string } }> } };
const doc = parse(readFileSync(fromRoot('schemas', 'openapi.yaml'), 'utf8')) as {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, Record<string, Operation>>;
};

const SECTION_7: Array<[string, string, string[]]> = [
  ['/v1/oauth/token', 'post', ['200', '413', '422', '429', '500']],
  ['/v2/users/{User-ID}', 'get', ['200', '400', '401', '404', '422', '503']],
  ['/v1/crypto-transfers/addresses/withdrawals', 'post', ['200', '400', '401', '403', '404', '422', '500', '503']],
  ['/v1/offers/{Offer-ID}/accept', 'patch', ['200', '202', '401', '403', '406', '409', '410', '422', '429', '500', '503']],
];

test('OpenAPI 3.1 with every specified operation and exactly the status codes of section 7', () => {
  assert.equal(doc.openapi, '3.1.0');
  for (const [path, method, codes] of SECTION_7) {
    const operation = doc.paths[path]?.[method];
    assert.ok(operation, `${method.toUpperCase()} ${path} missing`);
    assert.deepEqual(Object.keys(operation.responses).sort(), [...codes].sort(), `${path} status codes`);
  }
  assert.deepEqual(Object.keys(doc.webhooks['user-update']!.post!.responses).sort(), ['200', '201', '202', '204']);
});

test('every $ref names a schema file the suite validates with', () => {
  const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
  assert.equal(refs.length, 7, "one $ref per specified payload");
  for (const ref of refs) {
    const file = ref.slice(8, -1).replace(/^\.\//, '');
    assert.ok(existsSync(fromRoot('schemas', file)), `${file} does not exist`);
    assert.ok(validatorFor(file), `${file} is not loaded by the registry`);
  }
});
