// The requirement catalogue, the checks and the faults must stay in step:
// every requirement has a check and a fault, every check and fault names a
// known requirement.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { catalogue, specTextNormalized } from '../../src/requirements.ts';
import { fromRoot } from '../../src/paths.ts';
import { listAllChecks } from '../../app/run/list.ts';
import { FAULTS } from '../../reference/faults/index.ts';

const requirements = catalogue().requirements;
const ids = new Set(requirements.map((r) => r.id));
// The repository's own copy of the spec, so the quotes are checked without
// depending on anything beside the clone.
const specBytes = readFileSync(fromRoot('spec', 'service-spec.md'));

test('requirement ids are unique and well formed', () => {
  assert.equal(ids.size, requirements.length);
  for (const r of requirements) {
    assert.match(r.id, /^[A-Z][A-Z0-9-]+$/);
    assert.ok(['MUST', 'SHOULD', 'REVIEW'].includes(r.level), `${r.id} level ${r.level}`);
    assert.ok(r.clause && r.text, `${r.id} needs a clause and a text`);
  }
});

test('every requirement quotes the spec verbatim', () => {
  const spec = specTextNormalized(specBytes.toString('utf8'));
  for (const r of requirements) {
    assert.equal(typeof r.quote, 'string', `${r.id} needs a quote`);
    assert.ok(specTextNormalized(r.quote).length > 0, `${r.id} has an empty quote`);
    assert.ok(spec.includes(specTextNormalized(r.quote)), `${r.id} quote is not in spec/service-spec.md: ${r.quote}`);
  }
});

test('the spec copy is the version the catalogue was written against', () => {
  const declared = /sha256:([0-9a-f]{12})\b/.exec(catalogue().specVersion)?.[1];
  assert.ok(declared, `specVersion ${catalogue().specVersion} names no sha256 prefix`);
  const actual = createHash('sha256').update(specBytes).digest('hex').slice(0, 12);
  assert.equal(actual, declared, 'spec/service-spec.md differs from the spec the catalogue names in specVersion');
});

test('every check names known requirements, and every requirement has a check', async () => {
  const checks = await listAllChecks();
  const checkIds = checks.map((c) => c.id);
  assert.equal(new Set(checkIds).size, checkIds.length, 'check ids must be unique');
  for (const c of checks) for (const r of c.requirements) assert.ok(ids.has(r), `${c.id} names unknown requirement ${r}`);
  const covered = new Set(checks.flatMap((c) => c.requirements));
  assert.deepEqual(requirements.filter((r) => !covered.has(r.id)).map((r) => r.id), [], 'requirements without a check');
});

test('every fault names a known requirement, and every requirement has a fault', () => {
  const names = FAULTS.map((f) => f.name);
  assert.equal(new Set(names).size, names.length, 'fault names must be unique');
  for (const f of FAULTS) assert.ok(ids.has(f.requirement), `fault ${f.name} names unknown requirement ${f.requirement}`);
  const broken = new Set(FAULTS.map((f) => f.requirement));
  assert.deepEqual(requirements.filter((r) => !broken.has(r.id)).map((r) => r.id), [], 'requirements no fault breaks');
});

test('every further sentence is the spec verbatim, or a standard named by a word the spec uses; requirements list only known ones', () => {
  const spec = specTextNormalized(specBytes.toString('utf8'));
  const { sentences } = catalogue();
  for (const [id, sentence] of Object.entries(sentences)) {
    assert.ok(sentence.clause && sentence.quote, `${id} needs a clause and a quote`);
    if (sentence.source === 'spec') {
      assert.ok(spec.includes(specTextNormalized(sentence.quote)), `${id} is not in spec/service-spec.md: ${sentence.quote}`);
    } else {
      assert.match(sentence.source, /^RFC \d+$/, `${id}: source is "spec" or "RFC n"`);
      assert.ok(sentence.namedBy && spec.includes(sentence.namedBy), `${id}: the spec must name what ${sentence.source} defines (namedBy "${sentence.namedBy}")`);
    }
  }
  for (const r of requirements) for (const id of r.sentences ?? []) assert.ok(sentences[id], `${r.id} lists unknown sentence ${id}`);
});

test('documented fields are required by the response schemas, except those the catalogue names conditional', async () => {
  const { validateAgainst } = await import('../../src/schemas/registry.ts');
  const { conditionalFields } = catalogue();
  assert.ok(conditionalFields.every((f) => f.clause && f.reason.length > 20), 'each conditional field names its clause and why');
  // A refresh response without refresh_token is valid only because 4.1 rule 2 makes it conditional.
  const refresh = validateAgainst('token-response.schema.json#/$defs/refreshResponse', { expires_in: 300, access_token: 'a.b.c' });
  assert.deepEqual(refresh, []);
  assert.ok(conditionalFields.some((f) => f.schema.endsWith('refreshResponse') && f.field === 'refresh_token'));
  // Every field of the tables of 2.1 to 2.4 is required where the spec does not make it conditional.
  const tables: Array<[string, string, string]> = [
    ['2.1 Token response', 'token-response.schema.json', ''],
    ['2.2 User', 'user-details.schema.json', '/data'],
    ['2.3 Crypto withdrawal address', 'withdrawal-address-response.schema.json', '/data'],
    ['2.4 Accepted trade', 'accepted-trade.schema.json', '/data'],
  ];
  const text = specBytes.toString('utf8');
  for (const [heading, schema, at] of tables) {
    const section = text.slice(text.indexOf(`### ${heading}`));
    const rows = section.slice(0, section.indexOf('\n\n', section.indexOf('|---')) + 1);
    const fields = [...rows.matchAll(/^\| ([a-z_]+) \|/gm)].map((m) => m[1]!).filter((f) => f !== 'Field');
    assert.ok(fields.length >= 3, `${heading}: table rows found`);
    const errors = validateAgainst(schema, at ? { data: {} } : {}).filter((e) => e.keyword === 'required' && e.instancePath === at);
    const required = errors.map((e) => String(e.params.missingProperty));
    assert.deepEqual(fields.filter((f) => !required.includes(f)), [], `${schema}: documented fields not required`);
  }
});
