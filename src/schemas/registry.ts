// Every JSON Schema under schemas/ is loaded once into one Ajv 2020 instance
// (strict mode, ajv-formats, and the ISO 8601 formats of the spec's
// timestamps from iso8601.ts), so $refs between files resolve and every part
// of the suite validates against the same compiled schemas.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { schemasDir } from '../paths.ts';
import { ISO8601_FORMATS, iso8601Problem } from './iso8601.ts';

/** All schema $ids share this base so files can $ref each other relatively. */
export const SCHEMA_BASE = 'https://ptas-conformance.example/schemas/';

export interface SchemaError {
  /** JSON Pointer into the validated instance, '' for the root. */
  instancePath: string;
  message: string;
  keyword: string;
  params: Record<string, unknown>;
  /**
   * violation: a value contradicts the type or format the spec gives it.
   * absent: a field the spec's table documents is left out — a finding like a
   * violation (the spec documents the field; a field the spec makes
   * conditional is not required by the schema, and the catalogue's
   * conditionalFields says why).
   * null: a documented field is null where its type has no null — a WARN,
   * unless the schema marks the object with SPEC_REQUIRES because the spec's
   * text says it is there (e.g. `data` holding the user of 2.2).
   */
  kind: 'violation' | 'absent' | 'null';
}

/**
 * Annotation keyword: the spec's own words say this object is there (4.2
 * "an object with data holding the user of 2.2"; 2.4 "Each item has …"), so
 * null in its place is a violation, not a WARN.
 */
export const SPEC_REQUIRES = 'x-ptas-spec-requires';

// ajv-formats is CommonJS; under ESM its callable sits on .default.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => Ajv2020;

function listSchemaFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return listSchemaFiles(full);
    return entry.name.endsWith('.schema.json') ? [full] : [];
  });
}

let ajvInstance: Ajv2020 | undefined;

function ajv(): Ajv2020 {
  if (ajvInstance) return ajvInstance;
  const instance = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true, verbose: true });
  addFormats(instance);
  for (const [name, rule] of Object.entries(ISO8601_FORMATS)) {
    instance.addFormat(name, { type: 'string', validate: (text: string) => iso8601Problem(text, rule) === undefined });
  }
  instance.addKeyword(SPEC_REQUIRES);
  for (const file of listSchemaFiles(schemasDir)) {
    const schema = JSON.parse(readFileSync(file, 'utf8')) as { $id?: string };
    const expectedId = SCHEMA_BASE + path.relative(schemasDir, file).split(path.sep).join('/');
    if (schema.$id !== expectedId) {
      throw new Error(`${file}: $id must be ${expectedId} (found ${String(schema.$id)})`);
    }
    instance.addSchema(schema);
  }
  ajvInstance = instance;
  return instance;
}

/** Compiled validator for a schema file name relative to schemas/, e.g. 'token-response.schema.json'. */
export function validatorFor(schemaFile: string): ValidateFunction {
  const validate = ajv().getSchema(SCHEMA_BASE + schemaFile);
  if (!validate) throw new Error(`unknown schema ${schemaFile}`);
  return validate;
}

function kindOf(error: ErrorObject): SchemaError['kind'] {
  const parent = error.parentSchema as Record<string, unknown> | undefined;
  if (error.keyword === 'required') return 'absent';
  if (error.keyword === 'type' && error.data === null && parent?.[SPEC_REQUIRES] !== true) return 'null';
  return 'violation';
}

/**
 * ajv's message; for an ISO 8601 timestamp, what the spec asks and why the
 * value is not it ("must match format" says neither), or that it is null
 * where the spec documents a timestamp (a WARN, kindOf).
 */
function messageOf(error: ErrorObject): string {
  const parent = error.parentSchema as Record<string, unknown> | undefined;
  const rule = ISO8601_FORMATS[String(error.keyword === 'format' ? error.params.format : parent?.format)];
  if (rule && error.keyword === 'format' && typeof error.data === 'string') {
    return `${JSON.stringify(error.data)} is not an ISO 8601 timestamp ${rule}: ${iso8601Problem(error.data, rule)}`;
  }
  if (rule && error.keyword === 'type' && error.data === null) return `is null where the spec documents an ISO 8601 timestamp ${rule}`;
  return error.message ?? error.keyword;
}

export function toSchemaErrors(errors: ErrorObject[] | null | undefined): SchemaError[] {
  return (errors ?? []).map((e) => ({
    instancePath: e.instancePath,
    message: messageOf(e),
    keyword: e.keyword,
    params: e.params as Record<string, unknown>,
    kind: kindOf(e),
  }));
}

/** Validate and return the errors (empty when valid). */
export function validateAgainst(schemaFile: string, instance: unknown): SchemaError[] {
  const validate = validatorFor(schemaFile);
  return validate(instance) ? [] : toSchemaErrors(validate.errors);
}

/** A short human line for a list of schema errors. */
export function describeSchemaErrors(errors: SchemaError[], limit = 3): string {
  const shown = errors.slice(0, limit).map((e) => `${e.instancePath || '(root)'} ${e.message}`);
  const more = errors.length > limit ? ` (+${errors.length - limit} more)` : '';
  return shown.join('; ') + more;
}
