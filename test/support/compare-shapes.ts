// Compares a schema's shape with a type's (test/support/shapes.ts) and lists
// every difference as one readable line naming its JSON path:
// "trading.offerRecipes.*.acceptAnswers: schema enum [200,202], type number".
// A path step `*` is any key of a map, `[]` any element of an array.
import { describe, family, normalise, type Member, type Shape } from './shapes.ts';

export function compareShapes(schema: Shape, type: Shape, path = ''): string[] {
  const out: string[] = [];
  compare(normalise(schema), normalise(type), path, out);
  return out;
}

function compare(schema: Shape, type: Shape, path: string, out: string[]): void {
  if (schema.kind === 'union' || type.kind === 'union') return compareUnions(schema, type, path, out);
  const here = path || '(profile)';
  if (schema.kind !== type.kind) {
    out.push(`${here}: schema ${describe(schema, 'schema')}, type ${describe(type, 'type')}`);
    return;
  }
  if (schema.kind === 'literals' && type.kind === 'literals') {
    const key = (values: unknown[]) => JSON.stringify([...values].sort());
    if (key(schema.values) !== key(type.values)) out.push(`${here}: schema ${describe(schema, 'schema')}, type ${describe(type, 'type')}`);
  } else if (schema.kind === 'array' && type.kind === 'array') {
    compare(normalise(schema.items), normalise(type.items), `${path}[]`, out);
  } else if (schema.kind === 'object' && type.kind === 'object') {
    compareObjects(schema, type, path, out);
  } else if (schema.kind === 'other' || type.kind === 'other') {
    out.push(`${here}: schema ${describe(schema, 'schema')}, type ${describe(type, 'type')}`);
  }
}

type ObjectShape = Extract<Shape, { kind: 'object' }>;

function compareObjects(schema: ObjectShape, type: ObjectShape, path: string, out: string[]): void {
  const at = (name: string) => (path ? `${path}.${name}` : name);
  for (const [name, member] of schema.props) {
    const typed = type.props.get(name);
    if (!typed) out.push(`${at(name)}: in the schema, missing from the type`);
    else compareMember(member, typed, at(name), out);
  }
  for (const name of type.props.keys()) if (!schema.props.has(name)) out.push(`${at(name)}: in the type, not in the schema`);
  compareExtra(schema.extra, type.extra, path, out);
}

function compareMember(schema: Member, type: Member, path: string, out: string[]): void {
  if (schema.required && !type.required) out.push(`${path}: required in the schema, optional in the type`);
  if (!schema.required && type.required) out.push(`${path}: optional in the schema, required in the type`);
  compare(normalise(schema.shape), normalise(type.shape), path, out);
}

/** Keys beyond the named ones: additionalProperties on one side, an index signature (Record<string, …>) on the other. */
function compareExtra(schema: Shape | 'closed', type: Shape | 'closed', path: string, out: string[]): void {
  const here = path || '(profile)';
  if (schema === 'closed' && type !== 'closed') out.push(`${here}: the schema allows no other keys, the type has an index signature of ${describe(type, 'type')}`);
  else if (schema !== 'closed' && type === 'closed') out.push(`${here}: the schema allows other keys (${describe(schema, 'schema')}), the type has no index signature`);
  else if (schema !== 'closed' && type !== 'closed') compare(normalise(schema), normalise(type), path ? `${path}.*` : '*', out);
}

/**
 * One side is a union (oneOf/anyOf, or several enum families): members pair up
 * within a family (strings with strings, objects with objects); several objects
 * on both sides pair by the fewest differences (a discriminating const makes
 * every wrong pairing differ). A member without a partner is reported.
 */
function compareUnions(schema: Shape, type: Shape, path: string, out: string[]): void {
  const here = path || '(profile)';
  const schemaMembers = schema.kind === 'union' ? schema.members : [schema];
  let typeMembers = type.kind === 'union' ? type.members : [type];
  for (const member of schemaMembers) {
    const candidates = typeMembers.filter((t) => family(t) === family(member));
    if (!candidates.length) {
      out.push(`${here}: the schema allows ${describe(member, 'schema')}, the type does not (type ${describe(type, 'type')})`);
      continue;
    }
    const scored = candidates.map((t) => ({ t, diffs: compareShapes(member, t, path) }));
    const best = scored.reduce((a, b) => (b.diffs.length < a.diffs.length ? b : a));
    out.push(...best.diffs);
    typeMembers = typeMembers.filter((t) => t !== best.t);
  }
  for (const extra of typeMembers) out.push(`${here}: the type allows ${describe(extra, 'type')}, the schema does not (schema ${describe(schema, 'schema')})`);
}
