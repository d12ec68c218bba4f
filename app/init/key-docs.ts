// What the starter profile says about each key, taken from the profile
// schema (the single-file bundle) so it never says something the schema does
// not: a short description, and an example value for keys written commented out.
import { readFileSync } from 'node:fs';
import { PROFILE_SCHEMA_BUNDLE } from './schema-bundle.ts';

export interface SchemaNode {
  $ref?: string;
  type?: string | string[];
  title?: string;
  description?: string;
  examples?: unknown[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  exclusiveMinimum?: number;
  properties?: Record<string, SchemaNode>;
  required?: string[];
  $defs?: Record<string, SchemaNode>;
}

let bundle: SchemaNode | undefined;

export function profileSchema(): SchemaNode {
  bundle ??= JSON.parse(readFileSync(PROFILE_SCHEMA_BUNDLE, 'utf8')) as SchemaNode;
  return bundle;
}

/** A node with its local $ref followed; the referencing node's own description wins (it says what this use is for). */
export function resolveNode(node: SchemaNode): SchemaNode {
  if (!node.$ref?.startsWith('#/')) return node;
  let target: unknown = profileSchema();
  for (const segment of node.$ref.slice(2).split('/')) target = (target as Record<string, unknown>)[segment];
  const { $ref: _ref, ...own } = node;
  return { ...resolveNode(target as SchemaNode), ...own };
}

/** The schema node of a dotted profile key, e.g. "trading.createOffer". */
export function nodeAt(keyPath: string): SchemaNode | undefined {
  let node: SchemaNode | undefined = profileSchema();
  for (const segment of keyPath.split('.')) {
    const child: SchemaNode | undefined = node && resolveNode(node).properties?.[segment];
    if (!child) return undefined;
    node = child;
  }
  return node && resolveNode(node);
}

/** Whole sentences of a description, up to about `limit` characters (at least the first). */
export function summary(text: string | undefined, limit = 240): string {
  if (!text) return '';
  // A sentence ends at ". " before a capital or an opening bracket, not after "e.g." or "i.e.".
  const ends = [...text.matchAll(/(?<!\b(?:e\.g|i\.e|etc|cf))\.(?=\s+[A-Z("{[]|$)/g)].map((m) => m.index! + 1);
  let cut = ends[0] ?? text.length;
  for (const end of ends) if (end <= limit) cut = end;
  return text.slice(0, cut).trim();
}

/** "(default 10000)", "default 512.", "(default /ptas/…)" → the value when it is JSON or a path; "each defaults to true" counts for the members. */
function defaultIn(node: SchemaNode): unknown {
  const match = /\bdefault:? ([^;,)]+?)(?=[;,)]|:\s|\.(?:\s|$)|$)/.exec(node.description ?? '');
  if (!match) return undefined;
  const raw = match[1]!.trim();
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return node.type === 'string' && /^\/[\w./:-]*$/.test(raw) ? raw : undefined;
  }
}

/** "Which probes the load stage runs (each defaults to true)." → true for each member without a default of its own. */
function memberDefaultIn(node: SchemaNode): unknown {
  const match = /\beach defaults to (true|false|\d+)\b/.exec(node.description ?? '');
  return match ? (JSON.parse(match[1]!) as unknown) : undefined;
}

function placeholderFor(node: SchemaNode): unknown {
  if (node.const !== undefined) return node.const;
  if (node.enum?.length) return node.enum[0];
  const type = Array.isArray(node.type) ? node.type[0] : node.type;
  if (type === 'integer' || type === 'number') return node.minimum ?? (node.exclusiveMinimum !== undefined ? node.exclusiveMinimum + 1 : 1);
  if (type === 'boolean') return false;
  if (type === 'array') return [];
  if (type === 'string') return '…';
  return {};
}

/**
 * An example value for a key: the schema's own example, else the default its
 * description names, else what the bundled reference's profile sets (a
 * complete, working profile), else one built from the schema.
 */
export function exampleValue(keyPath: string, node: SchemaNode, fromReference: (keyPath: string) => unknown, inherited?: unknown): unknown {
  const resolved = resolveNode(node);
  if (resolved.examples?.length) return resolved.examples[0];
  const fallback = defaultIn(resolved) ?? inherited ?? fromReference(keyPath);
  if (fallback !== undefined) return fallback;
  if (resolved.properties) {
    const memberDefault = memberDefaultIn(resolved);
    return Object.fromEntries(
      Object.entries(resolved.properties).map(([key, child]) => [key, exampleValue(`${keyPath}.${key}`, child, fromReference, memberDefault)]),
    );
  }
  return placeholderFor(resolved);
}
