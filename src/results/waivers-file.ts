// Reads the waiver file of `ptas run --waivers FILE`: JSON (comments allowed,
// as in the profile: src/config/jsonc.ts) validated against
// schemas/waivers.schema.json. A bad file is refused before anything runs,
// with one line per problem naming the file, the JSON Pointer of the field and
// what to write there, because a waiver that silently does not load would
// turn a known failure back into NOT CONFORMANT in the middle of a
// certification.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ErrorObject } from 'ajv';
import { PtasError } from '../errors.ts';
import { JsoncSyntaxError, parseJsonc } from '../config/jsonc.ts';
import { schemasDir } from '../paths.ts';
import { requirementById } from '../requirements.ts';
import { validatorFor } from '../schemas/registry.ts';
import type { Waiver, WaiverFile, WaivableVerdict } from './waiver-model.ts';

export class WaiversFileError extends PtasError {
  readonly code = 'waivers-file';
  override name = 'WaiversFileError';
  constructor(
    message: string,
    /** JSON Pointer of the first field at fault, when one is. */
    readonly pointer?: string,
  ) {
    super(message);
  }
}

/** The file as a user writes it (schemas/waivers.schema.json). */
interface WaiverEntry {
  check?: string;
  requirement?: string;
  reason: string;
  owner: string;
  tracking: string;
  expires: string;
  expect: { verdict: WaivableVerdict; reason?: string };
}

interface FieldSchema {
  description?: string;
  examples?: unknown[];
  properties?: Record<string, FieldSchema>;
}

let fieldSchemas: { waiver: Record<string, FieldSchema>; expect: Record<string, FieldSchema> } | undefined;

/** What the schema says about a field: its description and first example are the fix a message offers. */
function fieldHelp(pointer: string): string {
  fieldSchemas ??= (() => {
    const schema = JSON.parse(readFileSync(path.join(schemasDir, 'waivers.schema.json'), 'utf8')) as { $defs: Record<string, FieldSchema> };
    return { waiver: schema.$defs.waiver!.properties!, expect: schema.$defs.expectation!.properties! };
  })();
  const segments = pointer.split('/');
  const field = segments.at(-1)!;
  const node = segments.at(-2) === 'expect' ? fieldSchemas.expect[field] : fieldSchemas.waiver[field];
  if (!node) return '';
  const example = node.examples?.length ? ` (example: ${JSON.stringify(node.examples[0])})` : '';
  return node.description ? ` Fix: ${node.description.replace(/\.$/, '')}${example}.` : '';
}

const SELECTOR_FIX =
  'give exactly one selector: "check" (a check id such as "auth.refresh-token-single-use") or "requirement" (a requirement id of schemas/requirements.json such as "TOKEN-REFRESH-SINGLE-USE"); `ptas list` shows both';

/** A problem with the keys of an object (missing, unknown, the selector) or a value outside a list. */
function keySentence(error: ErrorObject): string | undefined {
  const at = error.instancePath || '(root)';
  if (error.keyword === 'oneOf') return `${at}: ${SELECTOR_FIX}`;
  if (error.keyword === 'additionalProperties') {
    const extra = String((error.params as { additionalProperty: string }).additionalProperty);
    const allowed = Object.keys((error.parentSchema as FieldSchema | undefined)?.properties ?? {}).join(', ');
    return `${at}: unknown key "${extra}". Fix: remove it or correct its spelling (allowed here: ${allowed})`;
  }
  if (error.keyword === 'required') {
    const missing = String((error.params as { missingProperty: string }).missingProperty);
    return `${at}: missing "${missing}".${fieldHelp(`${error.instancePath}/${missing}`) || ' Fix: add it.'}`;
  }
  if (error.keyword === 'enum') {
    const allowed = ((error.params as { allowedValues?: unknown[] }).allowedValues ?? []).map((v) => JSON.stringify(v)).join(', ');
    return `${at}: ${JSON.stringify(error.data)} is not allowed. Fix: one of ${allowed}`;
  }
  return undefined;
}

const ruleBroken = (e: ErrorObject): string => (e.keyword === 'pattern' && (e.params as { pattern?: string }).pattern === '\\S' ? 'must not be blank' : (e.message ?? 'is invalid'));

/** One sentence per problem, in the file's order: a value breaking two rules (a pattern and a format) is one field to fix. */
function sentencesFor(errors: ErrorObject[]): string[] {
  const lines: Array<string | { path: string; errors: ErrorObject[] }> = [];
  const byPath = new Map<string, { path: string; errors: ErrorObject[] }>();
  for (const error of errors) {
    const sentence = keySentence(error);
    if (sentence) {
      lines.push(sentence);
      continue;
    }
    let value = byPath.get(error.instancePath);
    if (!value) {
      value = { path: error.instancePath, errors: [] };
      byPath.set(value.path, value);
      lines.push(value);
    }
    value.errors.push(error);
  }
  return lines.map((line) => (typeof line === 'string' ? line : `${line.path || '(root)'}: ${line.errors.map(ruleBroken).join(' and ')}.${fieldHelp(line.path)}`));
}

function validate(data: unknown, file: string): WaiverEntry[] {
  const validator = validatorFor('waivers.schema.json');
  if (validator(data)) return (data as { waivers: WaiverEntry[] }).waivers;
  // The two branches of the selector's oneOf each report their "required": the oneOf sentence says both at once.
  const errors = (validator.errors ?? []).filter((e) => !e.schemaPath.includes('/oneOf/'));
  throw new WaiversFileError(
    `${file} is not a valid waiver file (schemas/waivers.schema.json):\n${sentencesFor(errors).map((line) => `  ${line}`).join('\n')}`,
    errors[0]?.instancePath || undefined,
  );
}

/** Requirement ids are known without running anything (the catalogue): a misspelt one is refused here. */
function assertKnownRequirements(entries: WaiverEntry[], file: string): void {
  entries.forEach((entry, index) => {
    if (entry.requirement === undefined || requirementById(entry.requirement)) return;
    const pointer = `/waivers/${index}/requirement`;
    throw new WaiversFileError(
      `${file}: ${pointer}: "${entry.requirement}" is not a requirement of schemas/requirements.json. Fix: use one of its ids (\`ptas list\` shows each check's requirements), e.g. "TOKEN-REFRESH-SINGLE-USE"`,
      pointer,
    );
  });
}

function toWaiver(entry: WaiverEntry, index: number): Waiver {
  const selector = entry.check !== undefined ? { kind: 'check' as const, id: entry.check } : { kind: 'requirement' as const, id: entry.requirement! };
  const expect = entry.expect.reason !== undefined ? { verdict: entry.expect.verdict, reason: entry.expect.reason } : { verdict: entry.expect.verdict };
  return { pointer: `/waivers/${index}`, selector, reason: entry.reason, owner: entry.owner, tracking: entry.tracking, expires: entry.expires, expect };
}

/** Reads, validates and normalises a waiver file; its SHA-256 is of the bytes read, for manifest.json. */
export function loadWaivers(file: string): WaiverFile {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new WaiversFileError(code === 'ENOENT' ? `no waiver file at ${file}. Fix: check the path given to --waivers` : `cannot read the waiver file ${file}: ${(error as Error).message}`);
  }
  let data: unknown;
  try {
    data = parseJsonc(bytes.toString('utf8'));
  } catch (error) {
    if (!(error instanceof JsoncSyntaxError)) throw error;
    throw new WaiversFileError(`${file} is not JSON: ${error.message}. Fix: the file is one object, {"waivers": [ … ]} (schemas/waivers.schema.json)`);
  }
  const entries = validate(data, file);
  assertKnownRequirements(entries, file);
  return { file, sha256: createHash('sha256').update(bytes).digest('hex'), waivers: entries.map(toWaiver) };
}

/**
 * Refuses a waiver that names a check ptas does not have (a typo, a renamed
 * check) before a run starts, rather than reporting it unmatched at the end.
 * app/ passes the ids of every registered check (app/run/list.ts listAllChecks).
 */
export function assertKnownChecks(waivers: WaiverFile, knownCheckIds: Iterable<string>): void {
  const known = new Set(knownCheckIds);
  for (const waiver of waivers.waivers) {
    if (waiver.selector.kind !== 'check' || known.has(waiver.selector.id)) continue;
    const area = waiver.selector.id.split('.')[0];
    const sameArea = [...known].filter((id) => id.startsWith(`${area}.`)).sort();
    const hint = sameArea.length ? ` (checks of ${area}: ${sameArea.slice(0, 8).join(', ')}${sameArea.length > 8 ? ', …' : ''})` : '';
    const pointer = `${waiver.pointer}/check`;
    throw new WaiversFileError(`${waivers.file}: ${pointer}: no check "${waiver.selector.id}". Fix: use an id \`ptas list\` shows${hint}`, pointer);
  }
}
