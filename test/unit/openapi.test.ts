// schemas/openapi.yaml must stay true to the spec and to the schema files it
// assembles: every operation of 4.1-4.4 and the 6.1 webhook, the status codes
// of section 7, and $refs that resolve to schemas the suite itself uses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { fromRoot } from '../../src/paths.ts';
import { validatorFor } from '../../src/schemas/registry.ts';
import { SECTION_7_CODES } from '../../src/spec/status-codes.ts';

type Operation = { responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>; requestBody?: { content: Record<string, { schema: { $ref: string } }> } };
const doc = parse(readFileSync(fromRoot('schemas', 'openapi.yaml'), 'utf8')) as {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, Record<string, Operation>>;
};

const SECTION_7: Array<[string, string, string[]]> = [
  ['/v1/oauth/token', 'post', SECTION_7_CODES.token.map(String)],
  ['/v2/users/{User-ID}', 'get', SECTION_7_CODES.userDetails.map(String)],
  ['/v1/crypto-transfers/addresses/withdrawals', 'post', SECTION_7_CODES.withdrawalAddress.map(String)],
  ['/v1/offers/{Offer-ID}/accept', 'patch', SECTION_7_CODES.acceptOffer.map(String)],
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
