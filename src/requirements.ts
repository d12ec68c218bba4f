// Access to the requirement catalogue (schemas/requirements.json).
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
   * table row's cells joined by ` | `). A FAIL quotes it beside the clause.
   */
  quote: string;
  level: Severity;
  text: string;
}

export interface Catalogue {
  specVersion: string;
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

/** A check that names an unknown requirement is a bug in the suite: fail at load time. */
export function assertKnownRequirements(meta: Pick<CheckMeta, 'id' | 'requirements'>): void {
  if (meta.requirements.length === 0) throw new Error(`check ${meta.id} names no requirement`);
  for (const id of meta.requirements) {
    if (!requirementById(id)) throw new Error(`check ${meta.id} names unknown requirement ${id} (not in schemas/requirements.json)`);
  }
}
