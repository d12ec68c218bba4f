// Access to the requirement catalogue (schemas/requirements.json): every
// normative sentence of the spec as a requirement, and the further sentences
// a finding may rest on — other sentences of the spec, and sentences of the
// standards the spec names (RFC 9530 for Content-Digest, RFC 9110 for
// HTTP-date and status semantics, …).
import { readFileSync } from 'node:fs';
import { fromRoot } from './paths.ts';
import type { CheckMeta, Severity } from './check/model.ts';

export interface Requirement {
  id: string;
  area: CheckMeta['area'];
  clause: string;
  /**
   * The spec's own words this requirement enforces, copied verbatim from
   * spec/service-spec.md with markdown stripped (no backticks or `**`; a
   * table row's cells joined by ` | `). A finding that names no other
   * sentence rests on it.
   */
  quote: string;
  level: Severity;
  text: string;
  /** Ids of the catalogue's further sentences a finding of this requirement may rest on. */
  sentences?: string[];
  /** The suite version that first checked it; absent: the first version (FIRST_SUITE_VERSION). */
  since?: string;
}

/** The version every requirement without a `since` has been checked since. */
export const FIRST_SUITE_VERSION = '0.1.0';

/** Orders two dotted versions by their numeric parts (0.10.0 after 0.9.1). */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) => v.split(/[.+-]/).map((p) => Number.parseInt(p, 10) || 0);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

/**
 * A sentence a finding can rest on besides its requirement's quote: another
 * sentence of the spec (source "spec"), or one of a standard the spec names
 * for the field or exchange (source e.g. "RFC 9530"), quoted verbatim.
 */
export interface Sentence {
  source: 'spec' | `RFC ${number}`;
  /** The spec's clause ("7"), or the standard's section ("2"). */
  clause: string;
  quote: string;
  /** For a standard: the spec's own word that names what the standard defines ("Content-Digest"). */
  namedBy?: string;
}

/** A field of a section 2 (or 6.1) table the spec itself makes conditional: its absence is no finding. */
export interface ConditionalField {
  /** The schema (file and JSON pointer of the object) where the field is not required. */
  schema: string;
  field: string;
  clause: string;
  reason: string;
}

export interface Catalogue {
  specVersion: string;
  sentences: Record<string, Sentence>;
  conditionalFields: ConditionalField[];
  requirements: Requirement[];
}

let cached: Catalogue | undefined;

/**
 * Normalises spec text so a quote can be compared with the markdown it was
 * copied from: drops backticks and `**`, turns table pipes into spaces and
 * collapses all whitespace (line breaks included) to one space.
 */
export function specTextNormalized(text: string): string {
  return text.replaceAll('`', '').replaceAll('**', '').replaceAll('|', ' ').replace(/\s+/g, ' ').trim();
}

export function catalogue(): Catalogue {
  cached ??= JSON.parse(readFileSync(fromRoot('schemas', 'requirements.json'), 'utf8')) as Catalogue;
  return cached;
}

export function requirementById(id: string): Requirement | undefined {
  return catalogue().requirements.find((r) => r.id === id);
}

export function sentenceById(id: string): Sentence | undefined {
  return catalogue().sentences[id];
}

/** A check that names an unknown requirement is a bug in the suite: fail at load time. */
export function assertKnownRequirements(meta: Pick<CheckMeta, 'id' | 'requirements'>): void {
  if (meta.requirements.length === 0) throw new Error(`check ${meta.id} names no requirement`);
  for (const id of meta.requirements) {
    if (!requirementById(id)) throw new Error(`check ${meta.id} names unknown requirement ${id} (not in schemas/requirements.json)`);
  }
}
