// A TypeScript type read as a shape (test/support/shapes.ts) through the
// compiler API: the program holds one file and what it imports, compiled with
// the project's own options (tsconfig.json), so this takes a second or two.
import ts from 'typescript';
import path from 'node:path';
import type { Literal, Member, Shape } from './shapes.ts';

/** The shape of the type `name` exported by `file` (a path under `root`). */
export function exportedTypeShape(root: string, file: string, name: string): Shape {
  const configPath = path.join(root, 'tsconfig.json');
  const config = ts.readConfigFile(configPath, ts.sys.readFile);
  if (config.error) throw new Error(ts.flattenDiagnosticMessageText(config.error.messageText, '\n'));
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const program = ts.createProgram({ rootNames: [path.join(root, file)], options });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(path.join(root, file));
  const moduleSymbol = source && checker.getSymbolAtLocation(source);
  const symbol = moduleSymbol && checker.getExportsOfModule(moduleSymbol).find((s) => s.name === name);
  if (!symbol) throw new Error(`${file} exports no ${name}`);
  return new TypeReader(checker).shape(checker.getDeclaredTypeOfSymbol(symbol), 0);
}

class TypeReader {
  constructor(private readonly checker: ts.TypeChecker) {}

  shape(type: ts.Type, depth: number): Shape {
    if (depth > 20) throw new Error(`type too deep at ${this.checker.typeToString(type)}`);
    const flags = type.flags;
    if (flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return { kind: 'any' };
    if (type.isUnion()) {
      // An optional property's type carries `| undefined`: absence, which `required` already says.
      const members = type.types.filter((t) => !(t.flags & ts.TypeFlags.Undefined)).map((t) => this.shape(t, depth + 1));
      return members.length === 1 ? members[0]! : { kind: 'union', members };
    }
    if (type.isStringLiteral() || type.isNumberLiteral()) return { kind: 'literals', values: [type.value as Literal] };
    if (flags & ts.TypeFlags.BooleanLiteral) return { kind: 'literals', values: [this.checker.typeToString(type) === 'true'] };
    if (flags & ts.TypeFlags.String) return { kind: 'string' };
    if (flags & ts.TypeFlags.Number) return { kind: 'number' };
    if (flags & ts.TypeFlags.Boolean) return { kind: 'boolean' };
    if (flags & ts.TypeFlags.Null) return { kind: 'null' };
    if (this.checker.isArrayType(type)) return { kind: 'array', items: this.shape(this.checker.getTypeArguments(type as ts.TypeReference)[0]!, depth + 1) };
    if (flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection) && !type.getCallSignatures().length) return this.object(type, depth);
    return { kind: 'other', text: this.checker.typeToString(type) };
  }

  private object(type: ts.Type, depth: number): Shape {
    const props = new Map<string, Member>();
    for (const symbol of this.checker.getPropertiesOfType(type)) {
      const required = !(symbol.flags & ts.SymbolFlags.Optional);
      props.set(symbol.name, { shape: this.shape(this.checker.getTypeOfSymbol(symbol), depth + 1), required });
    }
    const index = this.checker.getIndexInfosOfType(type).find((info) => info.keyType.flags & ts.TypeFlags.String);
    return { kind: 'object', props, extra: index ? this.shape(index.type, depth + 1) : 'closed' };
  }
}
