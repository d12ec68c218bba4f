// The one list of checks ptas has. A check states its id, its title and the
// requirement ids it enforces; its area and severity are derived from the
// requirement catalogue (schemas/requirements.json), never restated. The
// Playwright runner (runner/define.ts), the cross-cutting checks
// (src/crosscut/index.ts), the load-stage probes (load/checks.ts), `ptas list`
// (app/run/list.ts), the reporter and the requirement-coverage test
// (test/unit/catalogue.test.ts) all read their check metadata from here.
import { assertKnownRequirements, compareVersions, FIRST_SUITE_VERSION, requirementById, type Requirement } from '../requirements.ts';
import type { CheckMeta } from './model.ts';

/**
 * What a check file states about a check. The spec sentence it enforces is
 * its requirements' catalogue quote, so it is not restated either.
 */
export type CheckDeclaration = Pick<CheckMeta, 'id' | 'title' | 'requirements'> & {
  /** The suite version that first ran this check, when it is newer than every requirement's `since` (a new check of a requirement checked before). */
  since?: string;
};

/**
 * How a check runs: as a Playwright test of its own ('conformance'), as a
 * verdict over the exchanges every test of a target recorded ('crosscut',
 * src/crosscut/), as a probe of the load stage ('load', load/stage.ts), or as
 * a rule of the spec that generated cases probe ('explore', explore/): its id
 * is `explore.<area>.<rule>`, and a certification does not require it.
 */
export type CheckStage = 'conformance' | 'crosscut' | 'load' | 'explore';

const registered = new Map<string, { meta: CheckMeta; stage: CheckStage; since: string }>();

/** The one value all requirements of a check have for `field`; requirements that disagree belong in separate checks. */
function shared<K extends 'area' | 'level'>(id: string, requirements: Requirement[], field: K): Requirement[K] {
  const values = [...new Set(requirements.map((r) => r[field]))];
  if (values.length !== 1) {
    const named = requirements.map((r) => `${r.id} ${r[field]}`).join(', ');
    throw new Error(`check ${id} names requirements of different ${field}s (${named}): split it into one check per ${field}`);
  }
  return values[0]!;
}

/**
 * The check as every consumer sees it. Severity is the level of its
 * requirements (it decides FAIL or WARN); area is their spec area, except that
 * a load-stage probe is reported under 'load' whatever operation it loads.
 * The id starts with the area, so the id alone says where a check belongs.
 */
export function deriveMeta(declaration: CheckDeclaration, stage: CheckStage): CheckMeta {
  assertKnownRequirements(declaration);
  const requirements = declaration.requirements.map((id) => requirementById(id)!);
  const severity = shared(declaration.id, requirements, 'level');
  const area = stage === 'load' ? 'load' : shared(declaration.id, requirements, 'area');
  const prefix = stage === 'explore' ? `explore.${area}.` : `${area}.`;
  if (!declaration.id.startsWith(prefix)) throw new Error(`check ${declaration.id} must be prefixed with its area: "${prefix}"`);
  return { id: declaration.id, title: declaration.title, area, requirements: [...declaration.requirements], severity };
}

/** Records a check and returns its derived metadata; a second check with the same id is a bug in the suite. */
export function registerCheck(declaration: CheckDeclaration, stage: CheckStage): CheckMeta {
  const meta = deriveMeta(declaration, stage);
  if (registered.has(meta.id)) throw new Error(`two checks have the id ${meta.id}`);
  const since = [declaration.since, ...meta.requirements.map((id) => requirementById(id)!.since)].reduce<string>((latest, v) => (v && compareVersions(v, latest) > 0 ? v : latest), FIRST_SUITE_VERSION);
  registered.set(meta.id, { meta, stage, since });
  return meta;
}

/**
 * The suite version that first ran a registered check: the latest `since` of
 * its requirements (schemas/requirements.json) and of its own declaration.
 * A stored run judged by an older suite never observed a check newer than it
 * (ptas rejudge names such checks "new").
 */
export function checkSince(id: string): string | undefined {
  return registered.get(id)?.since;
}

/** How a registered check runs (undefined: no such check). */
export function checkStage(id: string): CheckStage | undefined {
  return registered.get(id)?.stage;
}

/** Every check registered so far (of one stage, if given), in registration order. */
export function registeredChecks(stage?: CheckStage): CheckMeta[] {
  return [...registered.values()].filter((entry) => !stage || entry.stage === stage).map((entry) => entry.meta);
}
