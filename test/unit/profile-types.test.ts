// The profile's TypeScript types (src/config/profile.ts and
// src/config/sections/*.ts) say what schemas/config.schema.json says: the same
// property names at every level, required in the schema exactly where the
// type is not optional, maps where the schema has additionalProperties, and
// leaf kinds that agree (string, number for number and integer, boolean, an
// enum or const as the same literal union). The schema is the contract users
// write against; a key added to one side only fails here, naming its path.
// One exception is built in (test/support/schema-shape.ts): a key required
// only inside a oneOf/anyOf branch that lists nothing but `required` is
// optional in the type, since the type cannot say "one of these two".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot, schemasDir } from '../../src/paths.ts';
import { SchemaReader } from '../support/schema-shape.ts';
import { exportedTypeShape } from '../support/type-shape.ts';
import { compareShapes } from '../support/compare-shapes.ts';

const PROFILE_SCHEMA = 'config.schema.json';

/**
 * Differences the types cannot avoid, each a reported line mapped to why.
 * Empty today, keep it tiny: a difference TypeScript can express is fixed in
 * the type (or, for a key the code reads that the schema lacks, in the schema
 * and then `npm run schema:bundle`), not listed here.
 */
const ALLOWED: Record<string, string> = {};

const profileType = exportedTypeShape(packageRoot, 'src/config/profile.ts', 'Profile');

function differences(reader: SchemaReader): string[] {
  return compareShapes(reader.shapeOf(PROFILE_SCHEMA), profileType);
}

test('the Profile type and schemas/config.schema.json describe the same keys, requirements and kinds', () => {
  const found = differences(new SchemaReader(schemasDir));
  const unexplained = found.filter((line) => !(line in ALLOWED));
  assert.deepEqual(unexplained, [], `the profile types and the schema disagree:\n  ${unexplained.join('\n  ')}`);
  const stale = Object.keys(ALLOWED).filter((line) => !found.includes(line));
  assert.deepEqual(stale, [], 'allowed differences that no longer occur: remove them');
});

function schemaFile(file: string) {
  return JSON.parse(readFileSync(path.join(schemasDir, file), 'utf8'));
}

test('a schema that drifts from the types fails, naming each path', () => {
  const trading = schemaFile('profile/trading.schema.json');
  trading.properties.warmUpOffers = { type: 'integer' };
  trading.required = ['createOffer'];
  trading.$defs.offerRecipe.properties.acceptAnswers = { enum: [200, 202, 204] };
  trading.$defs.offerRecipe.properties.path = { type: 'boolean' };
  const load = schemaFile('profile/load.schema.json');
  delete load.properties.caps.properties.inFlight;
  load.properties.caps.required = ['rps'];
  load.properties.probes.additionalProperties = { type: 'boolean' };
  const reader = new SchemaReader(schemasDir, { 'profile/trading.schema.json': trading, 'profile/load.schema.json': load });
  assert.deepEqual(differences(reader).sort(), [
    'load.caps.durationSeconds: optional in the schema, required in the type',
    'load.caps.inFlight: in the type, not in the schema',
    'load.probes: the schema allows other keys (boolean), the type has no index signature',
    'trading.createOffer: required in the schema, optional in the type',
    'trading.offerRecipes.*.acceptAnswers: schema enum [200,202,204], type 200 | 202',
    'trading.offerRecipes.*.path: schema boolean, type string',
    'trading.warmUpOffers: in the schema, missing from the type',
  ]);
});
