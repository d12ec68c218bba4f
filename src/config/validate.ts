// Validates a profile against schemas/config.schema.json and turns Ajv's
// errors into sentences that name the key path, the expected shape and an
// example, because "must be integer" alone does not tell a user what to write.
import type { ErrorObject } from 'ajv';
import { validatorFor } from '../schemas/registry.ts';
import { ConfigError } from './errors.ts';
import type { Profile } from './profile.ts';
import { recipeConflict } from './sections/offer-recipes.ts';

interface SchemaNode {
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  description?: string;
  examples?: unknown[];
  properties?: Record<string, SchemaNode>;
}

function exampleFor(node: SchemaNode | undefined): string | undefined {
  if (!node) return undefined;
  if (node.examples?.length) return JSON.stringify(node.examples[0]);
  if (node.enum?.length) return JSON.stringify(node.enum[0]);
  if (node.format === 'uri') return '"http://127.0.0.1:8080"';
  if (node.type === 'integer' || node.type === 'number') return String(node.minimum ?? 1);
  if (node.type === 'boolean') return 'true';
  if (node.type === 'string') return '"…"';
  return undefined;
}

function describeExpected(node: SchemaNode | undefined): string | undefined {
  if (!node) return undefined;
  const parts: string[] = [];
  if (node.enum) parts.push(`one of ${node.enum.map((v) => JSON.stringify(v)).join(', ')}`);
  else if (node.type) parts.push(Array.isArray(node.type) ? node.type.join(' or ') : node.type);
  if (node.format) parts.push(`format ${node.format}`);
  if (node.minimum !== undefined) parts.push(`>= ${node.minimum}`);
  if (node.maximum !== undefined) parts.push(`<= ${node.maximum}`);
  return parts.join(', ') || undefined;
}

function sentenceFor(error: ErrorObject, source: string): string {
  const keyPath = error.instancePath || '(root)';
  const node = error.parentSchema as SchemaNode | undefined;
  if (error.keyword === 'additionalProperties') {
    const extra = String((error.params as { additionalProperty: string }).additionalProperty);
    const allowed = Object.keys(node?.properties ?? {}).join(', ');
    return `${source}: unknown key "${extra}" at ${keyPath}${allowed ? ` (allowed here: ${allowed})` : ''}`;
  }
  if (error.keyword === 'required') {
    const missing = String((error.params as { missingProperty: string }).missingProperty);
    const sub = node?.properties?.[missing];
    const example = exampleFor(sub);
    return `${source}: missing key "${missing}" at ${keyPath}${example ? ` (example: "${missing}": ${example})` : ''}`;
  }
  const expected = describeExpected(node);
  const example = exampleFor(node);
  const hint = [expected && `expected ${expected}`, example && `example: ${example}`, node?.description]
    .filter(Boolean)
    .join('; ');
  return `${source}: ${keyPath} ${error.message ?? 'is invalid'}${hint ? ` (${hint})` : ''}`;
}

/** Throws a ConfigError naming every problem when the profile does not match the schema. */
export function validateProfile(profile: unknown, source: string): void {
  const validate = validatorFor('config.schema.json');
  if (validate(profile)) {
    // What JSON Schema cannot say well: the two forms of offer recipes must not be mixed.
    const conflict = recipeConflict((profile as Profile).trading);
    if (conflict) throw new ConfigError(`${source}: ${conflict}`, '/trading/offerRecipes');
    return;
  }
  const errors = (validate.errors ?? []).filter(
    // "if/then" and "anyOf" wrappers repeat what their inner errors already say.
    (e) => e.keyword !== 'if' && e.keyword !== 'anyOf',
  );
  const first = errors[0];
  throw new ConfigError(errors.map((e) => sentenceFor(e, source)).join('\n'), first?.instancePath || undefined);
}
