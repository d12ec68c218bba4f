// A JSON Schema (draft 2020-12, as schemas/ writes it) read as a shape
// (test/support/shapes.ts): $ref followed across files, oneOf/anyOf as unions,
// allOf merged, additionalProperties as the shape of the other keys.
// Validation-only keywords (pattern, minimum, minItems…) say nothing a type
// can say, so they are not read.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Literal, Member, Shape } from './shapes.ts';

type Schema = Record<string, unknown>;

/** Reads schema files relative to a folder; `overrides` replaces a file's JSON (how the test proves it sees drift). */
export class SchemaReader {
  constructor(private readonly dir: string, private readonly overrides: Record<string, Schema> = {}) {}

  shapeOf(file: string): Shape {
    return this.shape(this.load(file), file);
  }

  private load(file: string): Schema {
    return this.overrides[file] ?? (JSON.parse(readFileSync(path.join(this.dir, file), 'utf8')) as Schema);
  }

  /** The node a $ref names, and the file it is in (the base of its own $refs). */
  private resolve(ref: string, file: string): { node: Schema; file: string } {
    const [target, pointer = ''] = ref.split('#');
    const targetFile = target ? path.posix.normalize(path.posix.join(path.posix.dirname(file), target)) : file;
    let node: unknown = this.load(targetFile);
    for (const step of pointer.split('/').filter(Boolean)) node = (node as Schema)[decodeURIComponent(step).replace(/~1/g, '/').replace(/~0/g, '~')];
    if (!node || typeof node !== 'object') throw new Error(`${file}: $ref ${ref} names nothing`);
    return { node: node as Schema, file: targetFile };
  }

  private shape(node: Schema, file: string): Shape {
    if (typeof node.$ref === 'string') {
      const { $ref, ...siblings } = node;
      const target = this.resolve($ref as string, file);
      // Siblings of $ref here are annotations (description, examples); a structural one is applied as allOf.
      return hasStructure(siblings) ? this.shape({ allOf: [{ $ref }, siblings] }, file) : this.shape(target.node, target.file);
    }
    if ('const' in node) return { kind: 'literals', values: [node.const as Literal] };
    if (Array.isArray(node.enum)) return { kind: 'literals', values: node.enum as Literal[] };
    if (Array.isArray(node.allOf)) return this.merged(node, file);
    const branches = (node.oneOf ?? node.anyOf) as Schema[] | undefined;
    // Branches that only list `required` make a key required in one case: the type keeps it optional.
    if (branches && !branches.every(onlyRequires)) return { kind: 'union', members: branches.map((b) => this.shape(b, file)) };
    if (Array.isArray(node.type)) return { kind: 'union', members: node.type.map((type) => this.shape({ ...node, type }, file)) };
    return this.typed(node, file);
  }

  private typed(node: Schema, file: string): Shape {
    const type = node.type ?? (node.properties || node.required || node.additionalProperties !== undefined ? 'object' : undefined);
    switch (type) {
      case 'object':
        return this.object(node, file);
      case 'array':
        return { kind: 'array', items: node.items ? this.shape(node.items as Schema, file) : { kind: 'any' } };
      case 'integer':
      case 'number':
        return { kind: 'number' };
      case 'string':
        return { kind: 'string' };
      case 'boolean':
        return { kind: 'boolean' };
      case 'null':
        return { kind: 'null' };
      case undefined:
        return { kind: 'any' };
      default:
        throw new Error(`${file}: type ${String(type)} is not read`);
    }
  }

  private object(node: Schema, file: string): Shape {
    const required = new Set((node.required as string[] | undefined) ?? []);
    const props = new Map<string, Member>();
    for (const [name, child] of Object.entries((node.properties as Record<string, Schema> | undefined) ?? {})) {
      props.set(name, { shape: this.shape(child, file), required: required.has(name) });
    }
    const additional = node.additionalProperties;
    const extra = additional === false ? 'closed' : additional && additional !== true ? this.shape(additional as Schema, file) : { kind: 'any' as const };
    return { kind: 'object', props, extra };
  }

  /** allOf of object schemas: their properties and required lists together, closed if any part is. */
  private merged(node: Schema, file: string): Shape {
    const { allOf, ...rest } = node;
    const raw = [...(allOf as Schema[]), ...(hasStructure(rest) ? [rest] : [])];
    const parts = raw.map((part) => this.shape(part, file));
    const requiredByAPart = new Set(raw.flatMap((part) => (part.required as string[] | undefined) ?? []));
    const objects = parts.filter((p): p is Extract<Shape, { kind: 'object' }> => p.kind === 'object');
    if (objects.length !== parts.length) throw new Error(`${file}: allOf of non-objects is not read`);
    const props = new Map<string, Member>();
    for (const part of objects) {
      for (const [name, member] of part.props) props.set(name, { shape: member.shape, required: member.required || requiredByAPart.has(name) || (props.get(name)?.required ?? false) });
    }
    return { kind: 'object', props, extra: objects.some((p) => p.extra === 'closed') ? 'closed' : objects[0]!.extra };
  }
}

const STRUCTURAL = ['type', 'properties', 'additionalProperties', 'required', 'items', 'enum', 'const', 'oneOf', 'anyOf', 'allOf', '$ref'];

function hasStructure(node: Schema): boolean {
  return STRUCTURAL.some((key) => key in node);
}

function onlyRequires(branch: Schema): boolean {
  return Object.keys(branch).every((key) => key === 'required' || key === 'description');
}
