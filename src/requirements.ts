// Access to the requirement catalogue (schemas/requirements.json).
import { readFileSync } from 'node:fs';
import { fromRoot } from './paths.ts';
import type { CheckMeta, Severity } from './check/model.ts';

export interface Requirement {
  id: string;
  area: CheckMeta['area'];
  clause: string;
  level: Severity;
  text: string;
}

export interface Catalogue {
  specVersion: string;
  requirements: Requirement[];
}

let cached: Catalogue | undefined;

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
