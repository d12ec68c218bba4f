// A JSON value's shape, the common ground on which a JSON Schema
// (test/support/schema-shape.ts) and a TypeScript type
// (test/support/type-shape.ts) are compared by test/unit/profile-types.test.ts.
// Only what both can say is kept: property names, which are required, what
// other keys may hold, and the kind of each leaf (integer and number are one
// kind: TypeScript has no integer).

export type Literal = string | number | boolean | null;

export type Shape =
  | { kind: 'any' | 'string' | 'number' | 'boolean' | 'null' }
  | { kind: 'literals'; values: Literal[] }
  | { kind: 'array'; items: Shape }
  | { kind: 'object'; props: Map<string, Member>; extra: Shape | 'closed' }
  | { kind: 'union'; members: Shape[] }
  /** A type the comparison cannot read (a function, a class); named for the report. */
  | { kind: 'other'; text: string };

export interface Member {
  shape: Shape;
  required: boolean;
}

/** Flattens nested unions and regroups literals by their JSON type, so `"a" | "b" | string[]` and enum ["a","b"] + array line up. */
export function normalise(shape: Shape): Shape {
  if (shape.kind !== 'union') return shape;
  const flat = shape.members.map(normalise).flatMap((m) => (m.kind === 'union' ? m.members : [m]));
  const literals = new Map<string, Literal[]>();
  const rest: Shape[] = [];
  for (const member of flat) {
    if (member.kind !== 'literals') rest.push(member);
    else for (const value of member.values) literals.set(familyOf(value), [...(literals.get(familyOf(value)) ?? []), value]);
  }
  for (const [family, values] of literals) {
    // true | false is how TypeScript spells boolean.
    if (family === 'boolean' && values.includes(true) && values.includes(false)) rest.push({ kind: 'boolean' });
    else rest.push({ kind: 'literals', values: [...new Set(values)] });
  }
  return rest.length === 1 ? rest[0]! : { kind: 'union', members: rest };
}

function familyOf(value: Literal): string {
  return value === null ? 'null' : typeof value;
}

/** The family a union member is paired within: string literals go with string, and so on. */
export function family(shape: Shape): string {
  if (shape.kind === 'literals') return familyOf(shape.values[0]!);
  return shape.kind;
}

export function describe(shape: Shape, side: 'schema' | 'type'): string {
  switch (shape.kind) {
    case 'literals': {
      const values = [...shape.values].sort().map((v) => JSON.stringify(v));
      return side === 'schema' ? (values.length === 1 ? `const ${values[0]}` : `enum [${values.join(',')}]`) : values.join(' | ');
    }
    case 'array':
      return `array of ${describe(shape.items, side)}`;
    case 'object':
      return 'object';
    case 'union':
      return shape.members.map((m) => describe(m, side)).join(side === 'schema' ? ' or ' : ' | ');
    case 'other':
      return shape.text;
    case 'any':
      return side === 'schema' ? 'any value' : 'unknown';
    default:
      return shape.kind;
  }
}
